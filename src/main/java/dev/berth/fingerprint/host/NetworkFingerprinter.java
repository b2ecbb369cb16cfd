package dev.berth.fingerprint.host;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import oshi.SystemInfo;
import oshi.hardware.NetworkIF;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.FingerprintProperties;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/**
 * {@code unique.network.ip-address}: the first IPv4 address of {@code berth.fingerprint.network-interface}, or, when
 * that is not set, of the interface whose subnet holds the default gateway, else of the first interface that is
 * not loopback, else {@code 127.0.0.1}. Reads interface data only; sends nothing.
 */
@Component
class NetworkFingerprinter implements Fingerprinter {

    private final SystemInfo systemInfo;
    private final String configuredInterface;

    NetworkFingerprinter(SystemInfo systemInfo, FingerprintProperties properties) {
        this.systemInfo = systemInfo;
        this.configuredInterface = properties.networkInterface();
    }

    @Override
    public String name() {
        return "network";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        List<Nic> nics = systemInfo.getHardware().getNetworkIFs().stream()
                .map(n -> new Nic(n.getName(), List.of(n.getIPv4addr()), List.of(n.getSubnetMasks()), isLoopback(n)))
                .toList();
        String gateway = systemInfo.getOperatingSystem().getNetworkParams().getIpv4DefaultGateway();
        String ip = choose(nics, configuredInterface, gateway);
        return FingerprintResult.ofAttributes(Map.of("unique.network.ip-address", ip));
    }

    /** One interface as OSHI saw it. */
    record Nic(String name, List<String> ipv4, List<Short> prefixLengths, boolean loopback) {
    }

    static String choose(List<Nic> nics, String configured, String gateway) {
        if (!configured.isEmpty()) {
            return nics.stream().filter(n -> n.name().equals(configured) && !n.ipv4().isEmpty())
                    .map(n -> n.ipv4().getFirst()).findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "network interface '" + configured + "' not found or without an IPv4 address"));
        }
        Optional<String> viaGateway = nics.stream()
                .flatMap(n -> addressInSubnetOf(n, gateway).stream())
                .findFirst();
        return viaGateway.or(() -> nics.stream().filter(n -> !n.loopback() && !n.ipv4().isEmpty())
                        .map(n -> n.ipv4().getFirst()).findFirst())
                .orElse("127.0.0.1");
    }

    private static Optional<String> addressInSubnetOf(Nic nic, String gateway) {
        if (gateway == null || gateway.isBlank()) {
            return Optional.empty();
        }
        for (int i = 0; i < nic.ipv4().size(); i++) {
            int prefix = i < nic.prefixLengths().size() && nic.prefixLengths().get(i) != null
                    ? nic.prefixLengths().get(i) : 32;
            if (sameSubnet(nic.ipv4().get(i), gateway, prefix)) {
                return Optional.of(nic.ipv4().get(i));
            }
        }
        return Optional.empty();
    }

    static boolean sameSubnet(String a, String b, int prefix) {
        try {
            int ia = toInt(InetAddress.getByName(a).getAddress());
            int ib = toInt(InetAddress.getByName(b).getAddress());
            int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
            return (ia & mask) == (ib & mask);
        } catch (UnknownHostException | IllegalArgumentException ex) {
            return false;
        }
    }

    private static int toInt(byte[] bytes) {
        if (bytes.length != 4) {
            throw new IllegalArgumentException("not IPv4");
        }
        return (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | (bytes[3] & 0xff);
    }

    private static boolean isLoopback(NetworkIF nif) {
        return "lo".equals(nif.getName()) || List.of(nif.getIPv4addr()).stream().anyMatch(ip -> ip.startsWith("127."));
    }
}
