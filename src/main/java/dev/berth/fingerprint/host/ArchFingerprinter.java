package dev.berth.fingerprint.host;

import java.util.Locale;
import java.util.Map;

import org.springframework.stereotype.Component;

import dev.berth.fingerprint.FingerprintRequest;
import dev.berth.fingerprint.FingerprintResult;
import dev.berth.fingerprint.Fingerprinter;

/** {@code cpu.arch} in Go's GOARCH spelling ({@code amd64}, {@code arm64}, …), as Nomad jobs constrain on it. */
@Component
class ArchFingerprinter implements Fingerprinter {

    @Override
    public String name() {
        return "arch";
    }

    @Override
    public FingerprintResult fingerprint(FingerprintRequest request) {
        return FingerprintResult.ofAttributes(Map.of("cpu.arch", goArch(System.getProperty("os.arch"))));
    }

    /** Maps the JVM's {@code os.arch} to GOARCH. */
    static String goArch(String javaArch) {
        String arch = javaArch.toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i486", "i586", "i686" -> "386";
            case "arm", "arm32" -> "arm";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            case "riscv64" -> "riscv64";
            default -> arch;
        };
    }

    /** Maps the JVM's {@code os.arch} to the kernel's machine name ({@code uname -m}). */
    static String kernelArch(String javaArch) {
        String arch = javaArch.toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "arm64", "aarch64" -> "aarch64";
            case "x86", "i386", "i486", "i586", "i686" -> "i686";
            default -> arch;
        };
    }
}
