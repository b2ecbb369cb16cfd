package dev.berth.fingerprint;

/**
 * Told about every change of the node (resources, attributes, drivers, status). Spring beans implementing it are
 * subscribed automatically; others call {@link NodeRegistry#subscribe}.
 *
 * <p>Contract: called on the thread that changed the node, one change at a time and in order; must return
 * quickly and must not block (hand long work to your own executor). An exception is logged and ignored.
 */
@FunctionalInterface
public interface NodeListener {

    void nodeChanged(Node node);
}
