package dev.berth.template.gotmpl;

/** A template that does not parse or fails while executing; the message has Go's {@code template: name:line: …} form. */
public class TemplateException extends Exception {

    public TemplateException(String message) {
        super(message);
    }
}
