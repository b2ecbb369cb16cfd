package dev.berth.template.gotmpl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.berth.template.gotmpl.Node.Branch;
import dev.berth.template.gotmpl.Node.Control;
import dev.berth.template.gotmpl.Node.Pipe;
import dev.berth.template.gotmpl.Token.Kind;

/**
 * Builds the parse tree of a template and of the templates it defines ({@code define}, {@code block}), checking at
 * parse time what Go checks then: every function is defined, every variable declared in an enclosing scope,
 * {@code break}/{@code continue} are inside a {@code range}, and each control has its {@code end}.
 */
final class Parser {

    /** What ended a list of nodes. */
    private enum Stop { END, ELSE, EOF }

    private final String name;
    private final List<Token> tokens;
    private final Set<String> functions;
    private final Map<String, List<Node>> defined = new LinkedHashMap<>();
    private final List<String> variables = new ArrayList<>(List.of("$"));
    private final Operands operands;
    private int next;
    private int rangeDepth;
    private Stop stop;

    Parser(String name, List<Token> tokens, Set<String> functions) {
        this.name = name;
        this.tokens = tokens;
        this.functions = functions;
        this.operands = new Operands(this);
    }

    /** The main template's tree; the trees it defines are put into {@code into} by name. */
    List<Node> parse(Map<String, List<Node>> into) throws TemplateException {
        List<Node> root = list(true);
        into.putAll(defined);
        return root;
    }

    private List<Node> list(boolean topLevel) throws TemplateException {
        List<Node> nodes = new ArrayList<>();
        while (true) {
            Token t = take();
            switch (t.kind()) {
                case TEXT -> nodes.add(new Node.Text(t.text()));
                case EOF -> {
                    if (!topLevel) {
                        throw error(t, "unexpected EOF");
                    }
                    stop = Stop.EOF;
                    return nodes;
                }
                case LEFT -> {
                    Node n = action(topLevel);
                    if (n == null) {
                        if (topLevel) {
                            throw error(t, "unexpected {{" + (stop == Stop.END ? "end" : "else") + "}}");
                        }
                        return nodes;
                    }
                    nodes.add(n);
                }
                default -> throw error(t, "unexpected " + t.describe());
            }
        }
    }

    /** One action after its left delimiter; null for {@code end} and {@code else}, which end the list ({@link #stop}). */
    private Node action(boolean topLevel) throws TemplateException {
        Token t = peek();
        if (t.kind() != Kind.KEYWORD) {
            Pipe pipe = pipeline("command", Kind.RIGHT, true);
            return new Node.Action(t.line(), pipe);
        }
        take();
        return switch (t.text()) {
            case "end" -> {
                expect(Kind.RIGHT, "end");
                stop = Stop.END;
                yield null;
            }
            case "else" -> {
                stop = Stop.ELSE;
                yield null;
            }
            case "if" -> branch(Control.IF, t);
            case "range" -> branch(Control.RANGE, t);
            case "with" -> branch(Control.WITH, t);
            case "template" -> call(t, "template");
            case "block" -> block(t);
            case "define" -> define(t, topLevel);
            case "break", "continue" -> {
                if (rangeDepth == 0) {
                    throw error(t, "{{" + t.text() + "}} outside {{range}}");
                }
                expect(Kind.RIGHT, t.text());
                yield new Node.LoopJump(t.line(), t.text().equals("break"));
            }
            default -> throw error(t, "unexpected " + t.describe());
        };
    }

    private Node branch(Control control, Token keyword) throws TemplateException {
        int mark = variables.size();
        String context = control.name().toLowerCase();
        Pipe pipe = pipeline(context, Kind.RIGHT, true);
        if (control == Control.RANGE) {
            rangeDepth++;
        }
        List<Node> body = list(false);
        if (control == Control.RANGE) {
            rangeDepth--;
        }
        List<Node> elseBody = List.of();
        if (stop == Stop.ELSE) {
            Token after = peek();
            if (control != Control.RANGE && after.kind() == Kind.KEYWORD && after.text().equals(context)) {
                take();
                elseBody = List.of(branch(control, after));
            } else {
                expect(Kind.RIGHT, "else");
                elseBody = list(false);
                if (stop != Stop.END) {
                    throw error(peek(), "expected end; found {{else}}");
                }
            }
        }
        truncateVariables(mark);
        return new Branch(control, keyword.line(), pipe, List.copyOf(body), List.copyOf(elseBody));
    }

    private Node call(Token keyword, String context) throws TemplateException {
        Token nameToken = take();
        if (nameToken.kind() != Kind.STRING) {
            throw error(nameToken, "unexpected " + nameToken.describe() + " in " + context + " clause");
        }
        Pipe pipe = null;
        if (peek().kind() != Kind.RIGHT) {
            pipe = pipeline(context, Kind.RIGHT, false);
        } else {
            take();
        }
        return new Node.Call(keyword.line(), nameToken.text(), pipe);
    }

    private Node block(Token keyword) throws TemplateException {
        Node.Call call = (Node.Call) call(keyword, "block");
        defineBody(call.name());
        return call;
    }

    private Node define(Token keyword, boolean topLevel) throws TemplateException {
        if (!topLevel) {
            throw error(keyword, "unexpected <define> in command");
        }
        Token nameToken = take();
        if (nameToken.kind() != Kind.STRING) {
            throw error(nameToken, "unexpected " + nameToken.describe() + " in define clause");
        }
        expect(Kind.RIGHT, "define clause");
        defineBody(nameToken.text());
        return new Node.Text("");
    }

    private void defineBody(String template) throws TemplateException {
        List<String> outer = List.copyOf(variables);
        int outerRange = rangeDepth;
        truncateVariables(1);
        rangeDepth = 0;
        List<Node> body = list(false);
        if (stop != Stop.END) {
            throw error(peek(), "unexpected {{else}}");
        }
        variables.clear();
        variables.addAll(outer);
        rangeDepth = outerRange;
        defined.put(template, List.copyOf(body));
    }

    /** A pipeline up to (and including) the {@code end} token. */
    Pipe pipeline(String context, Kind end, boolean mayDeclare) throws TemplateException {
        int line = peek().line();
        List<String> declared = new ArrayList<>();
        boolean assign = false;
        if (mayDeclare && peek().kind() == Kind.VARIABLE && isDeclaration()) {
            declared.add(take().text());
            if (peek().kind() == Kind.COMMA) {
                take();
                declared.add(take().text());
            }
            assign = take().kind() == Kind.ASSIGN;
            if (declared.size() == 2 && !context.equals("range")) {
                throw error(peek(), "too many declarations in " + context);
            }
            for (String v : declared) {
                if (assign && !variables.contains(v)) {
                    throw error(peek(), "undefined variable \"" + v + "\"");
                }
            }
        }
        List<Node.Command> commands = new ArrayList<>();
        while (true) {
            Token t = peek();
            if (t.kind() == end) {
                take();
                break;
            }
            if (t.kind() == Kind.EOF || t.kind() == Kind.RIGHT || t.kind() == Kind.RPAREN) {
                throw error(t, t.kind() == Kind.EOF ? "unclosed action" : "unexpected " + t.describe() + " in " + context);
            }
            commands.add(operands.command());
            if (peek().kind() == Kind.PIPE) {
                take();
                if (peek().kind() == end) {
                    throw error(peek(), "missing command after |");
                }
            }
        }
        if (commands.isEmpty()) {
            throw error(peek(), "missing value for " + context);
        }
        if (!assign) {
            variables.addAll(declared);
        }
        return new Pipe(line, List.copyOf(declared), assign, List.copyOf(commands));
    }

    private boolean isDeclaration() {
        Kind after = tokens.get(next + 1).kind();
        if (after == Kind.DECLARE || after == Kind.ASSIGN) {
            return true;
        }
        return after == Kind.COMMA && tokens.get(next + 2).kind() == Kind.VARIABLE
                && (tokens.get(next + 3).kind() == Kind.DECLARE || tokens.get(next + 3).kind() == Kind.ASSIGN);
    }

    private void truncateVariables(int size) {
        while (variables.size() > size) {
            variables.removeLast();
        }
    }

    boolean isVariable(String variable) {
        return variables.contains(variable);
    }

    boolean isFunction(String function) {
        return functions.contains(function);
    }

    Token peek() {
        return tokens.get(next);
    }

    Token take() {
        Token t = tokens.get(next);
        if (t.kind() != Kind.EOF) {
            next++;
        }
        return t;
    }

    private void expect(Kind kind, String context) throws TemplateException {
        Token t = take();
        if (t.kind() != kind) {
            throw error(t, "unexpected " + t.describe() + " in " + context);
        }
    }

    TemplateException error(Token at, String message) {
        return new TemplateException("template: " + name + ":" + at.line() + ": " + message);
    }
}
