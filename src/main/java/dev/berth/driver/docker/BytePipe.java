package dev.berth.driver.docker;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A bounded in-memory pipe between threads: any thread may write, any thread may read (unlike the JDK's piped streams,
 * which fail once the thread that last wrote has ended, as a virtual thread per websocket message does). A full pipe blocks
 * the writer; {@link #close()} is end-of-file for the reader after what was written.
 */
final class BytePipe {

    private static final byte[] EOF = new byte[0];

    private final BlockingQueue<byte[]> chunks;
    private volatile boolean closed;
    private byte[] current = new byte[0];
    private int position;

    /** @param capacity how many writes may wait unread before a writer blocks */
    BytePipe(int capacity) {
        this.chunks = new ArrayBlockingQueue<>(capacity);
    }

    final OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("pipe closed");
            }
            if (len == 0) {
                return;
            }
            try {
                chunks.put(Arrays.copyOfRange(b, off, off + len));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            }
        }

        @Override
        public void close() {
            BytePipe.this.close();
        }
    };

    final InputStream in = new InputStream() {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (position == current.length) {
                if (current == EOF) {
                    return -1;
                }
                try {
                    current = chunks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException();
                }
                position = 0;
                if (current == EOF) {
                    return -1;
                }
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public void close() {
            BytePipe.this.close();
            chunks.clear(); // unblocks a writer; what it still writes is dropped
        }
    };

    /** End of file for the reader once it has read what was written (idempotent). */
    void close() {
        if (!closed) {
            closed = true;
            // a full pipe gets a few seconds to drain; one nobody reads any more must not block the closer (drops the oldest)
            try {
                while (!chunks.offer(EOF, 5, java.util.concurrent.TimeUnit.SECONDS)) {
                    chunks.poll();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                chunks.clear();
                chunks.offer(EOF);
            }
        }
    }
}
