package dev.berth.alloc.admission;

/** The alloc does not fit the node (CPU, memory, a reserved port) or conflicts with its state: 409. */
public class AdmissionException extends Exception {
    private final String resource;

    public AdmissionException(String resource, String message) {
        super(message);
        this.resource = resource;
    }

    public String resource() {
        return resource;
    }
}
