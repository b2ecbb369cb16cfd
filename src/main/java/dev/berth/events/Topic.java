package dev.berth.events;

/** Nomad's event-stream topics, spelled as on the wire ({@code "Topic":"Allocation"}). */
public enum Topic {
    Allocation,
    Node,
    Job,
    Evaluation,
    Deployment,
    Service,
    Variable,
    HostVolume
}
