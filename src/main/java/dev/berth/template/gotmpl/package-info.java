/**
 * Go's {@code text/template} language for Java: a lexer, a parser to a sealed node tree and an executor, with Go's
 * builtin functions and error texts. Data is Java maps, lists, strings, {@code Long}/{@code Double} numbers and
 * booleans; further functions are passed in by the caller. Used by the {@code template} task hook.
 */
package dev.berth.template.gotmpl;
