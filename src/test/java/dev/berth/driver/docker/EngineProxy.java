package dev.berth.driver.docker;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A unix-socket pass-through to the real engine that a test can take down and bring back: down, its socket file is gone
 * and every open connection is cut, exactly what a client sees of a stopped dockerd; up, every byte goes to the real
 * engine. The shared engine keeps running (and its containers with it), so other tests are not disturbed.
 */
public final class EngineProxy implements AutoCloseable {

    private final Path socket;
    private final Path target;
    private final List<SocketChannel> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocketChannel server;
    private volatile boolean wedged;

    /** A proxy at {@code socket} (a short path: 108 bytes at most) to the engine socket {@code target}; starts down. */
    public EngineProxy(Path socket, Path target) {
        this.socket = socket;
        this.target = target;
    }

    /** The docker host URI clients use, {@code unix://<socket>}. */
    public String host() {
        return "unix://" + socket;
    }

    public synchronized void up() throws IOException {
        wedged = false;
        if (server != null) {
            return;
        }
        Files.deleteIfExists(socket);
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        s.bind(UnixDomainSocketAddress.of(socket));
        server = s;
        Thread.ofVirtual().name("engine-proxy-accept").start(() -> accept(s));
    }

    /**
     * A wedged engine: the socket is there and accepts connections, but requests on new connections are never answered
     * (open connections are cut). {@link #up} heals it.
     */
    public synchronized void wedge() throws IOException {
        up();
        wedged = true;
        for (SocketChannel c : open) {
            close(c);
        }
        open.clear();
    }

    public synchronized void down() throws IOException {
        ServerSocketChannel s = server;
        server = null;
        if (s != null) {
            s.close();
        }
        Files.deleteIfExists(socket);
        for (SocketChannel c : open) {
            close(c);
        }
        open.clear();
    }

    @Override
    public void close() throws IOException {
        down();
    }

    private void accept(ServerSocketChannel s) {
        while (s.isOpen()) {
            SocketChannel downstream;
            try {
                downstream = s.accept();
            } catch (IOException e) {
                return; // closed by down()
            }
            if (wedged) {
                open.add(downstream); // read nothing, answer nothing
                continue;
            }
            try {
                SocketChannel upstream = SocketChannel.open(UnixDomainSocketAddress.of(target));
                open.add(downstream);
                open.add(upstream);
                Thread.ofVirtual().start(() -> pump(downstream, upstream));
                Thread.ofVirtual().start(() -> pump(upstream, downstream));
            } catch (IOException e) {
                close(downstream);
            }
        }
    }

    private void pump(SocketChannel from, SocketChannel to) {
        ByteBuffer buf = ByteBuffer.allocate(16 * 1024);
        try {
            while (from.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                buf.clear();
            }
            // half-close keeps HTTP request/response pairs intact
            to.shutdownOutput();
        } catch (IOException e) {
            close(from);
            close(to);
        }
    }

    private static void close(SocketChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
