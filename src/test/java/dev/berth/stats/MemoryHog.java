package dev.berth.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;

/**
 * A task for the real-kernel tests: prints {@code ready}, waits for a line on stdin, then allocates and touches
 * {@code args[0]} MiB off-heap (a direct buffer is zeroed on allocation, so every page is resident), prints
 * {@code allocated} and holds it until stdin closes.
 */
public final class MemoryHog {

    private MemoryHog() {
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        in.readLine();
        ByteBuffer held = ByteBuffer.allocateDirect(Integer.parseInt(args[0]) << 20);
        for (int i = 0; i < held.capacity(); i += 4096) {
            held.put(i, (byte) 1);
        }
        System.out.println("allocated " + held.capacity());
        System.out.flush();
        while (in.readLine() != null) {
            // hold the memory until the test closes stdin
        }
    }
}
