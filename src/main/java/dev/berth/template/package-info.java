/**
 * Nomad's {@code template} task hook: a task's templates (Go template syntax, {@link dev.berth.template.gotmpl}) are
 * rendered into its directory before it starts, with consul-template's functions that make sense on one node
 * ({@code env}, {@code file}, {@code nomadVar…}, {@code nomadService…}, text, math and JSON helpers), and rendered again
 * when a variable or service they read changes, applying their {@code change_mode}.
 */
package dev.berth.template;
