package dev.berth.driver.docker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The engine's {@code POST /exec/{id}/start} on a connection of its own, hijacked for the exec's raw stream: docker-java's
 * hijacking cannot half-close the connection, and only a half-close tells the engine that stdin ended (so {@code cat}
 * in the container sees end-of-file). Reads and writes go to the {@link SocketChannel} directly, which allows one reader
 * and one writer at once. Without a TTY the stream is the engine's multiplexed format (an 8-byte header: stream type,
 * 3 zero bytes, big-endian length; then the payload); with one it is the terminal's raw bytes.
 */
final class ExecAttach {

    /** Stream types of the multiplexed format. */
    static final int STDOUT = 1;
    static final int STDERR = 2;

    private final SocketChannel channel;
    private final boolean tty;
    private ByteBuffer leftover;

    private ExecAttach(SocketChannel channel, boolean tty, ByteBuffer leftover) {
        this.channel = channel;
        this.tty = tty;
        this.leftover = leftover;
    }

    /** Connects to {@code host} ({@code unix://…} or plain {@code tcp://host:port}) and starts the exec attached. */
    static ExecAttach start(String host, String execId, boolean tty) throws IOException {
        URI uri = URI.create(host);
        SocketChannel channel = switch (uri.getScheme()) {
            case "unix" -> SocketChannel.open(UnixDomainSocketAddress.of(uri.getPath()));
            case "tcp", "http" -> SocketChannel.open(new InetSocketAddress(uri.getHost(), uri.getPort()));
            default -> throw new IOException("exec does not support the docker host " + host);
        };
        try {
            String body = "{\"Detach\":false,\"Tty\":" + tty + "}";
            String request = "POST /exec/" + execId + "/start HTTP/1.1\r\nHost: docker\r\nContent-Type: application/json\r\n"
                    + "Connection: Upgrade\r\nUpgrade: tcp\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
            ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII));
            while (out.hasRemaining()) {
                channel.write(out);
            }
            ByteBuffer in = ByteBuffer.allocate(16 * 1024);
            int end;
            while ((end = headerEnd(in)) < 0) {
                if (!in.hasRemaining() || channel.read(in) < 0) {
                    throw new IOException("the engine closed the exec stream before answering");
                }
            }
            String head = new String(in.array(), 0, end, StandardCharsets.ISO_8859_1);
            String status = head.substring(0, Math.max(0, head.indexOf("\r\n")));
            if (!status.matches("HTTP/1\\.[01] (101|200).*")) {
                throw new IOException("the engine refused to start exec " + execId + ": " + status);
            }
            ByteBuffer rest = ByteBuffer.wrap(in.array(), end + 4, in.position() - end - 4);
            return new ExecAttach(channel, tty, rest);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static int headerEnd(ByteBuffer in) {
        byte[] a = in.array();
        for (int i = 0; i + 3 < in.position(); i++) {
            if (a[i] == '\r' && a[i + 1] == '\n' && a[i + 2] == '\r' && a[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** A sink for what the command writes, by stream. */
    interface Output {
        void write(int stream, byte[] data) throws IOException;
    }

    /** Reads the stream until the command's output ends (or the connection closes), handing each chunk to {@code output}. */
    void copyOutput(Output output) throws IOException {
        InputStream in = input();
        if (tty) {
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) >= 0) {
                output.write(STDOUT, java.util.Arrays.copyOf(buf, n));
            }
            return;
        }
        byte[] header = new byte[8];
        while (in.readNBytes(header, 0, 8) == 8) {
            int length = ((header[4] & 0xff) << 24) | ((header[5] & 0xff) << 16) | ((header[6] & 0xff) << 8) | (header[7] & 0xff);
            byte[] payload = in.readNBytes(length);
            if (payload.length < length) {
                return;
            }
            output.write(header[0] == STDERR ? STDERR : STDOUT, payload);
        }
    }

    /** The command's stdin; {@link OutputStream#close()} half-closes the connection, which the engine passes on as EOF. */
    OutputStream stdin() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                while (buf.hasRemaining()) {
                    channel.write(buf);
                }
            }

            @Override
            public void close() throws IOException {
                if (channel.isOpen()) {
                    channel.shutdownOutput();
                }
            }
        };
    }

    void close() throws IOException {
        channel.close();
    }

    private InputStream input() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                if (leftover != null && leftover.hasRemaining()) {
                    int n = Math.min(len, leftover.remaining());
                    leftover.get(b, off, n);
                    return n;
                }
                return channel.read(ByteBuffer.wrap(b, off, len));
            }
        };
    }
}
