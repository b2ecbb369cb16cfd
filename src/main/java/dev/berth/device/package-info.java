/**
 * Devices: the {@link dev.berth.device.DevicePlugin} SPI, the {@link dev.berth.device.DeviceManager} that supervises
 * one plugin each (validation, backoff, timeouts, latest-stats index), reservations of device instances for tasks
 * ({@link dev.berth.device.DeviceAllocator}) and per-instance metrics. Plugins live in sub-packages
 * ({@code example}, {@code nvidia}).
 */
package dev.berth.device;
