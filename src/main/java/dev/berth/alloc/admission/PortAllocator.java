package dev.berth.alloc.admission;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.random.RandomGenerator;

import dev.berth.alloc.spec.NetworkSpec;

/**
 * Hands out host ports on 127.0.0.1: reserved ports are checked (not held by another alloc, really bindable), dynamic ports
 * are picked at random from {@code [min, max]} and checked the same way. Ports are held per alloc until released.
 */
public final class PortAllocator {

    private final int min;
    private final int max;
    private final RandomGenerator random;
    private final IntPredicate bindable;
    // guarded by this
    private final Map<Integer, String> used = new HashMap<>();

    public PortAllocator(int min, int max, RandomGenerator random) {
        this(min, max, random, PortAllocator::bindableOnLoopback);
    }

    public PortAllocator(int min, int max, RandomGenerator random, IntPredicate bindable) {
        this.min = min;
        this.max = max;
        this.random = random;
        this.bindable = bindable;
    }

    /**
     * Assigns every port of {@code networks} for {@code allocId}: all or nothing.
     *
     * @return the networks with every dynamic port's {@code Value} set
     */
    public synchronized List<NetworkSpec> assign(String allocId, List<NetworkSpec> networks) throws AdmissionException {
        if (networks == null) {
            return null;
        }
        List<Integer> taken = new ArrayList<>();
        try {
            for (NetworkSpec n : networks) {
                if (n.reservedPorts() != null) {
                    for (NetworkSpec.PortSpec p : n.reservedPorts()) {
                        String owner = used.get(p.value());
                        if ((owner != null && !owner.equals(allocId)) || (owner == null && !bindable.test(p.value()))) {
                            throw new AdmissionException("ports", "reserved port collision " + p.label() + "=" + p.value());
                        }
                        used.put(p.value(), allocId);
                        taken.add(p.value());
                    }
                }
            }
            List<NetworkSpec> out = new ArrayList<>();
            for (NetworkSpec n : networks) {
                List<NetworkSpec.PortSpec> dyn = null;
                if (n.dynamicPorts() != null) {
                    dyn = new ArrayList<>();
                    for (NetworkSpec.PortSpec p : n.dynamicPorts()) {
                        int port = pick(allocId);
                        taken.add(port);
                        dyn.add(new NetworkSpec.PortSpec(p.label(), port, p.to()));
                    }
                }
                out.add(new NetworkSpec(n.mode(), "127.0.0.1", n.reservedPorts(), dyn));
            }
            return out;
        } catch (AdmissionException e) {
            taken.forEach(used::remove);
            throw e;
        }
    }

    private int pick(String allocId) throws AdmissionException {
        int span = max - min + 1;
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = min + random.nextInt(span);
            if (tryTake(port, allocId)) {
                return port;
            }
        }
        for (int port = min; port <= max; port++) {
            if (tryTake(port, allocId)) {
                return port;
            }
        }
        throw new AdmissionException("ports", "dynamic port selection failed: no free port in " + min + "-" + max);
    }

    private boolean tryTake(int port, String allocId) {
        if (used.containsKey(port) || !bindable.test(port)) {
            return false;
        }
        used.put(port, allocId);
        return true;
    }

    /** Re-claims ports an alloc already holds (restore after an agent restart): its own task may be bound to them. */
    public synchronized void claim(String allocId, List<NetworkSpec> networks) {
        if (networks == null) {
            return;
        }
        for (NetworkSpec n : networks) {
            for (List<NetworkSpec.PortSpec> list : java.util.Arrays.asList(n.reservedPorts(), n.dynamicPorts())) {
                if (list != null) {
                    list.stream().filter(p -> p.value() != null).forEach(p -> used.put(p.value(), allocId));
                }
            }
        }
    }

    /** Frees every port of the alloc. Idempotent. */
    public synchronized void release(String allocId) {
        used.values().removeIf(allocId::equals);
    }

    public synchronized int inUse() {
        return used.size();
    }

    public static boolean bindableOnLoopback(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
