package dev.berth.api.mixinprobe;

import org.springframework.boot.jackson.JacksonMixin;

/** A {@code @JacksonMixin} that Spring Boot's scan would find in this (test-only) package. */
@JacksonMixin(ProbeMixin.ProbeTarget.class)
public abstract class ProbeMixin {

    /** The type the mixin is for. */
    public record ProbeTarget(String name) {
    }
}
