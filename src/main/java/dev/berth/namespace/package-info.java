/**
 * Nomad's namespaces on one node ({@code /v1/namespaces}, {@code /v1/namespace/:name}), as Nomad's community edition
 * has them: a name, a description, meta and capabilities. {@link dev.berth.namespace.NamespaceService} creates, updates, reads and
 * deletes them through the {@link dev.berth.namespace.NamespaceStore} port (implemented in {@code state}); the features
 * whose objects live in a namespace tell it, through {@link dev.berth.namespace.NamespaceUsage}, what keeps one from
 * being deleted. {@code default} always exists and cannot be deleted.
 */
package dev.berth.namespace;
