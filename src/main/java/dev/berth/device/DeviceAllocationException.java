package dev.berth.device;

/** The node cannot give a task the devices it asks for; the API answers 409 and changes nothing. */
public class DeviceAllocationException extends DeviceException {

    public DeviceAllocationException(String message) {
        super(message);
    }
}
