package dev.berth.events;

/** A value read from the node's state with the modify index it answers for ({@code X-Nomad-Index}). */
public record Indexed<T>(T value, long index) {
}
