package dev.berth.config;

/** Outcome of an ACL check. */
public sealed interface AclDecision {

    /** @param tokenName the name of the token that was accepted ({@code anonymous} when ACLs are off or not needed) */
    record Allowed(String tokenName) implements AclDecision {
    }

    /** @param reason Nomad's error text: {@link AclPolicy#PERMISSION_DENIED} or {@link AclPolicy#TOKEN_NOT_FOUND} */
    record Denied(String reason) implements AclDecision {
    }
}
