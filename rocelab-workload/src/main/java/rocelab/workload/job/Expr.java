package rocelab.workload.job;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A small integer expression over a rank's coordinates, the degrees and loop variables, as written in a job's
 * {@code when} and {@code peer}: {@code pp > 0}, {@code pp < PP-1 && mb % 2 == 0}, {@code (dp + 1) % DP}. Integers,
 * names, {@code + - * / %}, comparisons, {@code && || !} and parentheses; a comparison is 1 or 0.
 */
public final class Expr {
    private final String text;
    private final Node root;

    private Expr(String text, Node root) {
        this.text = text;
        this.root = root;
    }

    /** A parse error, with the 0-based offset in the text where it was found. */
    public static final class ParseException extends Exception {
        private final int offset;

        ParseException(String message, int offset) {
            super(message);
            this.offset = offset;
        }

        public int offset() {
            return offset;
        }
    }

    /** The operators that may follow a value, as an error message lists them. */
    private static final String OPERATORS = "+ - * / % == != < <= > >= && ||";

    /** Parses {@code text}; every name must be in {@code names}. */
    public static Expr parse(String text, Set<String> names) throws ParseException {
        Parser p = new Parser(text, names);
        Node n = p.or();
        p.skip();
        if (p.pos < text.length()) {
            // A lone '=' is the usual slip for '==': say so, with the operators that may follow a value.
            boolean assign = text.charAt(p.pos) == '=';
            throw new ParseException("unexpected '" + text.charAt(p.pos) + "'; expected "
                    + (assign ? "'==' to compare, or another operator (" : "an operator (") + OPERATORS
                    + ") or the end of the expression", p.pos);
        }
        return new Expr(text, n);
    }

    /** The value for these variables; names not bound are an error. */
    public long eval(Map<String, Long> vars) {
        return root.eval(vars);
    }

    public boolean test(Map<String, Long> vars) {
        return eval(vars) != 0;
    }

    @Override
    public String toString() {
        return text;
    }

    private interface Node {
        long eval(Map<String, Long> v);
    }

    private static final class Parser {
        private final String s;
        private final Set<String> names;
        private int pos;

        Parser(String s, Set<String> names) {
            this.s = s;
            this.names = names;
        }

        void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        boolean eat(String op) {
            skip();
            if (s.startsWith(op, pos)) {
                pos += op.length();
                return true;
            }
            return false;
        }

        Node or() throws ParseException {
            Node l = and();
            while (eat("||")) {
                Node a = l;
                Node b = and();
                l = v -> a.eval(v) != 0 || b.eval(v) != 0 ? 1 : 0;
            }
            return l;
        }

        Node and() throws ParseException {
            Node l = compare();
            while (eat("&&")) {
                Node a = l;
                Node b = compare();
                l = v -> a.eval(v) != 0 && b.eval(v) != 0 ? 1 : 0;
            }
            return l;
        }

        Node compare() throws ParseException {
            Node l = sum();
            for (String op : new String[] {"==", "!=", "<=", ">=", "<", ">"}) {
                if (eat(op)) {
                    Node a = l;
                    Node b = sum();
                    return switch (op) {
                        case "==" -> v -> a.eval(v) == b.eval(v) ? 1 : 0;
                        case "!=" -> v -> a.eval(v) != b.eval(v) ? 1 : 0;
                        case "<=" -> v -> a.eval(v) <= b.eval(v) ? 1 : 0;
                        case ">=" -> v -> a.eval(v) >= b.eval(v) ? 1 : 0;
                        case "<" -> v -> a.eval(v) < b.eval(v) ? 1 : 0;
                        default -> v -> a.eval(v) > b.eval(v) ? 1 : 0;
                    };
                }
            }
            return l;
        }

        Node sum() throws ParseException {
            Node l = product();
            while (true) {
                if (eat("+")) {
                    Node a = l;
                    Node b = product();
                    l = v -> a.eval(v) + b.eval(v);
                } else if (eat("-")) {
                    Node a = l;
                    Node b = product();
                    l = v -> a.eval(v) - b.eval(v);
                } else {
                    return l;
                }
            }
        }

        Node product() throws ParseException {
            Node l = unary();
            while (true) {
                skip();
                int at = pos;
                if (eat("*")) {
                    Node a = l;
                    Node b = unary();
                    l = v -> a.eval(v) * b.eval(v);
                } else if (eat("/") || eat("%")) {
                    boolean div = s.charAt(at) == '/';
                    Node a = l;
                    Node b = unary();
                    l = v -> {
                        long d = b.eval(v);
                        if (d == 0) {
                            throw new ArithmeticException("division by zero in '" + s + "'");
                        }
                        return div ? Math.floorDiv(a.eval(v), d) : Math.floorMod(a.eval(v), d);
                    };
                } else {
                    return l;
                }
            }
        }

        Node unary() throws ParseException {
            if (eat("!")) {
                Node a = unary();
                return v -> a.eval(v) == 0 ? 1 : 0;
            }
            if (eat("-")) {
                Node a = unary();
                return v -> -a.eval(v);
            }
            return atom();
        }

        Node atom() throws ParseException {
            skip();
            if (eat("(")) {
                Node n = or();
                if (!eat(")")) {
                    throw new ParseException("missing ')'", pos);
                }
                return n;
            }
            int start = pos;
            if (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                long value;
                try {
                    value = Long.parseLong(s.substring(start, pos));
                } catch (NumberFormatException e) {
                    throw new ParseException("number too large", start);
                }
                return v -> value;
            }
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            if (start == pos) {
                throw new ParseException(pos < s.length() ? "unexpected '" + s.charAt(pos) + "'; expected a number,"
                        + " a name or '('" : "the expression ends too early; expected a number, a name or '('", start);
            }
            String name = s.substring(start, pos);
            if (!names.contains(name)) {
                throw new ParseException("unknown name '" + name + "'; expected one of: "
                        + String.join(", ", new TreeSet<>(names)), start);
            }
            return v -> {
                Long value = v.get(name);
                if (value == null) {
                    throw new IllegalStateException("'" + name + "' has no value here");
                }
                return value;
            };
        }
    }
}
