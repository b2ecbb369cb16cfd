package dev.berth.device;

/** A device operation failed (reservation, plugin call). */
public class DeviceException extends Exception {

    public DeviceException(String message) {
        super(message);
    }

    public DeviceException(String message, Throwable cause) {
        super(message, cause);
    }
}
