package dev.berth.fingerprint.host;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import oshi.SystemInfo;

import dev.berth.config.BerthProperties;
import dev.berth.fingerprint.FingerprintProperties;
import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.NodeResources;
import dev.berth.fingerprint.TestNodes;

import static org.assertj.core.api.Assertions.assertThat;

/** The host fingerprinters against this machine, each checked against an independent source (proc files, commands). */
class HostFingerprintersTest {

    private static SystemInfo systemInfo;
    private static final FingerprintRequest REQUEST = new FingerprintRequest(TestNodes.initial());

    @BeforeAll
    static void oshi() {
        systemInfo = new SystemInfo();
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.waitFor()).as("exit of %s", List.of(command)).isZero();
        return out;
    }

    @Test
    void memoryTotalIsMemTotalFromProcMeminfo() throws Exception {
        long memTotalKb = Files.readAllLines(Path.of("/proc/meminfo")).stream()
                .filter(l -> l.startsWith("MemTotal:"))
                .map(l -> Long.parseLong(l.replaceAll("\\D+", "")))
                .findFirst().orElseThrow();

        FingerprintResult result = new MemoryFingerprinter(systemInfo).fingerprint(REQUEST);

        assertThat(result.attributes()).containsEntry("memory.totalbytes", Long.toString(memTotalKb * 1024));
        assertThat(result.memory()).isEqualTo(new NodeResources.Memory(memTotalKb * 1024 / (1024 * 1024)));
    }

    @Test
    void cpuCoresAreNprocAndComputeIsCoresTimesFrequency() throws Exception {
        int nproc = Integer.parseInt(run("nproc"));

        FingerprintResult result = new CpuFingerprinter(systemInfo, "", Path.of("/proc/self/status")).fingerprint(REQUEST);

        Map<String, String> a = result.attributes();
        assertThat(a).containsEntry("cpu.numcores", Integer.toString(nproc))
                .containsEntry("cpu.reservablecores", Integer.toString(nproc))
                .containsKeys("cpu.modelname", "cpu.frequency");
        long mhz = Long.parseLong(a.get("cpu.frequency"));
        assertThat(mhz).isBetween(100L, 10_000L);
        assertThat(a).containsEntry("cpu.totalcompute", Long.toString(mhz * nproc))
                .containsEntry("cpu.usablecompute", Long.toString(mhz * nproc));
        assertThat(result.cpu().cpuShares()).isEqualTo(mhz * nproc);
        assertThat(result.cpu().totalCpuCores()).isEqualTo(nproc);
        assertThat(result.cpu().reservableCpuCores()).hasSize(nproc).startsWith(0);
        String model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElseThrow();
        assertThat(a).containsEntry("cpu.modelname", model);
    }

    @Test
    void numaNodesListTheirCoresAsIdSets() throws Exception {
        java.nio.file.Path nodes = Path.of("/sys/devices/system/node");
        long expectedNodes = Files.isDirectory(nodes)
                ? Files.list(nodes).filter(p -> p.getFileName().toString().matches("node\\d+")).count() : 1;

        Map<String, String> a = new CpuFingerprinter(systemInfo, "", Path.of("/proc/self/status")).fingerprint(REQUEST).attributes();

        assertThat(a).containsEntry("numa.node.count", Long.toString(Math.max(1, expectedNodes)));
        if (expectedNodes <= 1) {
            int nproc = Integer.parseInt(run("nproc"));
            assertThat(a).containsEntry("numa.node0.cores", nproc == 1 ? "0" : "0-" + (nproc - 1));
        }
        assertThat(CpuFingerprinter.idSet(List.of(11, 0, 1, 2, 3, 8, 10))).isEqualTo("0-3,8,10-11");
        assertThat(CpuFingerprinter.idSet(List.of(5))).isEqualTo("5");
    }

    @Test
    void hostAttributesMatchUnameAndHostname() throws Exception {
        FingerprintResult result = new HostFingerprinter(systemInfo).fingerprint(REQUEST);

        assertThat(result.attributes())
                .containsEntry("kernel.name", "linux")
                .containsEntry("kernel.version", run("uname", "-r"))
                .containsEntry("kernel.arch", run("uname", "-m"))
                .containsEntry("unique.hostname", run("hostname"))
                .containsKeys("os.name", "os.version");
        assertThat(HostFingerprinter.parseOsRelease(Files.readAllLines(Path.of("/etc/os-release")), "ID"))
                .contains(result.attributes().get("os.name"));
    }

    @Test
    void osNameAndVersionComeFromOsRelease() throws Exception {
        Path ubuntu = Path.of(getClass().getResource("/fingerprint/os-release-ubuntu.txt").toURI());

        FingerprintResult result = new HostFingerprinter(systemInfo, ubuntu).fingerprint(REQUEST);

        assertThat(result.attributes()).containsEntry("os.name", "ubuntu").containsEntry("os.version", "24.04");
    }

    @Test
    void archIsGoarchOfUnameMachine() throws Exception {
        String machine = run("uname", "-m");
        String expected = switch (machine) {
            case "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> machine;
        };

        assertThat(new ArchFingerprinter().fingerprint(REQUEST).attributes()).containsEntry("cpu.arch", expected);
    }

    @Test
    void storageIsTheFileSystemOfTheAllocDir(@TempDir Path dataDir) throws Exception {
        BerthProperties properties = properties(dataDir);
        // The alloc dir does not exist yet: its nearest existing parent decides the file system.
        FingerprintResult result = new StorageFingerprinter(systemInfo, properties).fingerprint(REQUEST);

        java.nio.file.FileStore store = Files.getFileStore(dataDir);
        assertThat(result.attributes()).containsEntry("unique.storage.bytestotal", Long.toString(store.getTotalSpace()))
                .containsKey("unique.storage.volume");
        long free = Long.parseLong(result.attributes().get("unique.storage.bytesfree"));
        // Free space moves while other builds run; it must be the same file system's figure within 1 GiB.
        assertThat(free).isCloseTo(store.getUsableSpace(), org.assertj.core.data.Offset.offset(1L << 30));
        assertThat(result.disk().diskMb()).isEqualTo(free / (1024 * 1024));
        assertThat(result.attributes().get("unique.storage.volume")).isEqualTo(store.name());
    }

    @Test
    void networkAddressIsOneOfThisMachinesAddresses() throws Exception {
        List<String> addresses = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(NetworkInterface::inetAddresses).map(InetAddress::getHostAddress).toList();

        FingerprintResult result = new NetworkFingerprinter(systemInfo, FingerprintProperties.defaults()).fingerprint(REQUEST);

        assertThat(addresses).contains(result.attributes().get("unique.network.ip-address"));
    }

    @Test
    void networkPrefersTheDefaultRouteInterfaceThenConfiguredOne() {
        List<NetworkFingerprinter.Nic> nics = List.of(
                new NetworkFingerprinter.Nic("lo", List.of("127.0.0.1"), List.of((short) 8), true),
                new NetworkFingerprinter.Nic("docker0", List.of("172.17.0.1"), List.of((short) 16), false),
                new NetworkFingerprinter.Nic("eth0", List.of("192.0.2.2"), List.of((short) 24), false));

        assertThat(NetworkFingerprinter.choose(nics, "", "192.0.2.1")).isEqualTo("192.0.2.2");
        assertThat(NetworkFingerprinter.choose(nics, "", "")).isEqualTo("172.17.0.1");
        assertThat(NetworkFingerprinter.choose(nics, "lo", "192.0.2.1")).isEqualTo("127.0.0.1");
        assertThat(NetworkFingerprinter.choose(List.of(nics.getFirst()), "", "")).isEqualTo("127.0.0.1");
    }

    @Test
    void signalsAreSortedAndHoldTheUsualOnes() {
        String signals = new SignalFingerprinter().fingerprint(REQUEST).attributes().get("os.signals");

        List<String> list = List.of(signals.split(","));
        assertThat(list).isSorted().contains("SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGUSR1", "SIGUSR2")
                .allSatisfy(name -> assertThat(dev.berth.host.Signals.lookup(name)).isPresent());
    }

    @Test
    void berthReportsItsVersionAndTheNomadCompatVersion() {
        assertThat(new BerthFingerprinter().fingerprint(REQUEST).attributes())
                .containsEntry("berth.version", "dev")
                .containsEntry("nomad.version", BerthFingerprinter.NOMAD_COMPAT_VERSION);
    }

    static BerthProperties properties(Path dataDir) {
        return new BerthProperties(dataDir, "", "dc1", "", Map.of(), null, null, null, null,
                new BerthProperties.Client(java.time.Duration.ofSeconds(30), 20000, 32000, ""), true);
    }
}
