package dev.berth.device;

/** Told when a process shows up on a reserved instance that belongs to no task of the holding allocation. */
public interface ForeignProcessListener {

    /**
     * Called once per (instance, pid) when it is first seen (on the plugin's statistics thread; must be quick).
     *
     * @param holder the task that holds the instance
     */
    void foreignProcess(String instanceId, DeviceGroupKey group, DeviceProcess process, TaskRef holder);
}
