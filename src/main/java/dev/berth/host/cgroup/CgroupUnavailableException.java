package dev.berth.host.cgroup;

/** A task cgroup cannot be made; the message says which step failed and the kernel's answer. */
public class CgroupUnavailableException extends Exception {

    public CgroupUnavailableException(String message) {
        super(message);
    }
}
