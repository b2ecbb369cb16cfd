package dev.berth.template.gotmpl;

import java.util.List;

/**
 * A function a template may call. It gets its evaluated arguments (the piped value last) and returns a value; an
 * exception is the call's error, reported as Go does: {@code error calling <name>: <message>}. A
 * {@link WrongArguments} is reported as {@code wrong number of args for <name>: want N got M}.
 */
@FunctionalInterface
public interface TemplateFunction {

    Object apply(List<Object> args) throws Exception;

    /** A function of exactly {@code arity} arguments. */
    static TemplateFunction fixed(int arity, TemplateFunction body) {
        return args -> {
            if (args.size() != arity) {
                throw new WrongArguments(String.valueOf(arity), args.size());
            }
            return body.apply(args);
        };
    }

    /** The number of arguments did not fit the function. */
    final class WrongArguments extends IllegalArgumentException {

        private final String want;
        private final int got;

        public WrongArguments(String want, int got) {
            super("want " + want + " got " + got);
            this.want = want;
            this.got = got;
        }

        public String want() {
            return want;
        }

        public int got() {
            return got;
        }
    }
}
