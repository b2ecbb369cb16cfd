package dev.berth.template.gotmpl;

import java.util.ArrayList;
import java.util.List;

/** The variables visible while a template runs: a stack, so leaving a control's scope drops what it declared. */
final class Scope {

    record Entry(String name, Object value) {
    }

    private final List<Entry> entries = new ArrayList<>();

    void push(String name, Object value) {
        entries.add(new Entry(name, value));
    }

    /** Declares a variable ({@code :=}) or assigns the nearest one of that name ({@code =}). */
    void declareOrAssign(String name, Object value, boolean assign) {
        if (!assign) {
            push(name, value);
            return;
        }
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).name().equals(name)) {
                entries.set(i, new Entry(name, value));
                return;
            }
        }
        throw new Evaluator.Failure(name, "undefined variable: " + name);
    }

    Object get(String name) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).name().equals(name)) {
                return entries.get(i).value();
            }
        }
        throw new Evaluator.Failure(name, "undefined variable: " + name);
    }

    int mark() {
        return entries.size();
    }

    void reset(int mark) {
        while (entries.size() > mark) {
            entries.removeLast();
        }
    }

    /** Replaces every variable with one (a called template sees only its own {@code $}); gives back what was there. */
    List<Entry> replace(String name, Object value) {
        List<Entry> saved = List.copyOf(entries);
        entries.clear();
        push(name, value);
        return saved;
    }

    void restore(List<Entry> saved) {
        entries.clear();
        entries.addAll(saved);
    }
}
