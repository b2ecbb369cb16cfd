package dev.berth.service.probe;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.X509TrustManager;

import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;

/**
 * The standard gRPC health check ({@code grpc.health.v1.Health/Check}), as Consul and the kubelet run it: passes when
 * the server answers {@code SERVING} for {@code GRPCService} (empty: the whole server). The two tiny protobuf messages
 * are encoded here by hand, so no protobuf runtime is needed. One channel per armed check, closed with it.
 */
public final class GrpcProbe implements CheckProbe {

    static final MethodDescriptor<byte[], byte[]> CHECK = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("grpc.health.v1.Health/Check")
            .setRequestMarshaller(new Bytes())
            .setResponseMarshaller(new Bytes())
            .build();

    private static final String[] STATUS = {"UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"};

    private final String target;
    private final String service;
    private final ManagedChannel channel;

    public GrpcProbe(String host, int port, String service, boolean tls, boolean skipVerify) {
        this.target = host + ":" + port;
        this.service = service == null ? "" : service;
        ChannelCredentials creds = !tls ? InsecureChannelCredentials.create()
                : skipVerify ? TlsChannelCredentials.newBuilder().trustManager(trustAll()).build() : TlsChannelCredentials.create();
        this.channel = Grpc.newChannelBuilderForAddress(host, port, creds).directExecutor().build();
    }

    @Override
    public ProbeResult run(Duration timeout) throws InterruptedException {
        CompletableFuture<byte[]> reply = new CompletableFuture<>();
        ClientCall<byte[], byte[]> call = channel.newCall(CHECK, CallOptions.DEFAULT.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS));
        call.start(new ClientCall.Listener<>() {
            private byte[] message;

            @Override
            public void onMessage(byte[] m) {
                message = m;
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                if (status.isOk() && message != null) {
                    reply.complete(message);
                } else {
                    reply.completeExceptionally(status.asRuntimeException(trailers));
                }
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(request(service));
        call.halfClose();
        try {
            int status = servingStatus(reply.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS));
            String name = status >= 0 && status < STATUS.length ? STATUS[status] : Integer.toString(status);
            String what = "gRPC check " + target + (service.isEmpty() ? "" : "/" + service);
            return status == 1 ? new ProbeResult(true, 0, what + ": success") : ProbeResult.failure(what + ": status " + name);
        } catch (ExecutionException e) {
            Status s = Status.fromThrowable(e.getCause());
            return ProbeResult.failure("gRPC check " + target + ": " + s.getCode() + (s.getDescription() == null ? "" : ": " + s.getDescription()));
        } catch (TimeoutException e) {
            call.cancel("timeout", null);
            return ProbeResult.failure("gRPC check " + target + ": DEADLINE_EXCEEDED");
        } catch (InterruptedException e) {
            call.cancel("check stopped", null);
            throw e;
        }
    }

    @Override
    public void close() {
        channel.shutdownNow();
    }

    /** {@code HealthCheckRequest{string service = 1}}. */
    static byte[] request(String service) {
        byte[] s = service.getBytes(StandardCharsets.UTF_8);
        if (s.length == 0) {
            return new byte[0];
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length + 6);
        out.write(0x0A);
        writeVarint(out, s.length);
        out.writeBytes(s);
        return out.toByteArray();
    }

    /** {@code HealthCheckResponse{ServingStatus status = 1}}; other fields skipped; absent = 0 (UNKNOWN). */
    static int servingStatus(byte[] m) {
        int[] at = {0};
        int status = 0;
        while (at[0] < m.length) {
            long key = readVarint(m, at);
            int wire = (int) (key & 7);
            if (key >>> 3 == 1 && wire == 0) {
                status = (int) readVarint(m, at);
            } else if (wire == 0) {
                readVarint(m, at);
            } else if (wire == 2) {
                int length = (int) readVarint(m, at); // read first: "at[0] += f(at)" would add to the old position
                at[0] += length;
            } else if (wire == 1) {
                at[0] += 8;
            } else if (wire == 5) {
                at[0] += 4;
            } else {
                throw new IllegalArgumentException("malformed health response");
            }
        }
        return status;
    }

    private static void writeVarint(java.io.ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    private static long readVarint(byte[] m, int[] at) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at[0] >= m.length) {
                throw new IllegalArgumentException("truncated health response");
            }
            byte b = m[at[0]++];
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("malformed varint");
    }

    /** Accepts any server certificate ({@code TLSSkipVerify}). */
    private static X509TrustManager trustAll() {
        return new X509TrustManager() {
            @Override public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a) { }
            @Override public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a) { }
            @Override public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        };
    }

    /** Raw message bytes in and out. */
    private static final class Bytes implements MethodDescriptor.Marshaller<byte[]> {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
