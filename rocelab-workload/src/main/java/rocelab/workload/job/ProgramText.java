package rocelab.workload.job;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A program written back in the scenario's step language, one flow-style mapping per step, so a generator's
 * expansion can be read, checked and pasted into a scenario as a hand-written program.
 */
public final class ProgramText {
    private ProgramText() {}

    public static String render(List<Step> program) {
        StringBuilder b = new StringBuilder();
        render(b, program, "");
        return b.toString();
    }

    private static void render(StringBuilder b, List<Step> steps, String indent) {
        for (Step s : steps) {
            if (s instanceof Step.Repeat r) {
                b.append(indent).append("- repeat: ").append(r.count()).append('\n');
                if (r.variable() != null) {
                    b.append(indent).append("  as: ").append(r.variable()).append('\n');
                }
                b.append(indent).append("  steps:\n");
                render(b, r.steps(), indent + "    ");
                continue;
            }
            b.append(indent).append("- {id: ").append(s.meta().id());
            if (s instanceof Step.Compute c) {
                b.append(", op: compute, duration: ").append(time(c.durationPs()));
            } else if (s instanceof Step.Delay d) {
                b.append(", op: delay, duration: ").append(time(d.durationPs()));
            } else if (s instanceof Step.Collective c) {
                b.append(", op: ").append(c.op().key()).append(", group: ").append(group(c));
                if (c.sizeBytes() > 0) {
                    b.append(c.perRank() ? ", size-per-rank: " : ", size-total: ").append(c.sizeBytes());
                }
                b.append(", algorithm: ").append(c.algorithm().key());
                if (c.channels() > 1) {
                    b.append(", channels: ").append(c.channels());
                }
                if (c.qpsPerConnection() > 1) {
                    b.append(", qps-per-connection: ").append(c.qpsPerConnection());
                }
                if (c.skew() != null) {
                    b.append(", skew: {zipf: ").append(c.skew().zipf()).append(", seed: ").append(c.skew().seed())
                            .append('}');
                }
                if (c.op().rooted()) {
                    b.append(", root: ").append(c.rootIndex());
                }
                if (c.members() != null) {
                    b.append(", members: \"").append(c.members()).append('"');
                }
            } else if (s instanceof Step.Transfer t) {
                b.append(", op: ").append(t.send() ? "send" : "recv").append(", peer: ").append(peer(t.peer()));
                if (t.send()) {
                    b.append(", size: ").append(t.sizeBytes());
                }
            }
            if (!s.meta().stream().equals("main")) {
                b.append(", stream: ").append(s.meta().stream());
            }
            if (!s.meta().after().isEmpty()) {
                b.append(", after: [").append(String.join(", ", s.meta().after())).append(']');
            }
            if (s.meta().when() != null) {
                b.append(", when: \"").append(s.meta().when()).append('"');
            }
            b.append("}\n");
        }
    }

    private static String group(Step.Collective c) {
        if (c.dims().size() == Dim.values().length) {
            return "world";
        }
        List<String> keys = c.dims().stream().map(Dim::key).toList();
        return keys.size() == 1 ? keys.get(0) : "[" + String.join(", ", keys) + "]";
    }

    private static String peer(Map<Dim, Expr> peer) {
        if (peer.size() == 1) {
            Map.Entry<Dim, Expr> e = peer.entrySet().iterator().next();
            String text = e.getValue().toString();
            if (text.startsWith(e.getKey().key())) {
                return text;
            }
        }
        return peer.entrySet().stream().map(e -> e.getKey().key() + ": \"" + e.getValue() + "\"")
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** A time in the largest unit that keeps it whole (us with decimals down to ns otherwise). */
    static String time(long ps) {
        if (ps == 0) {
            return "0";
        }
        if (ps % 1_000_000_000L == 0) {
            return ps / 1_000_000_000L + "ms";
        }
        if (ps % 1_000_000L == 0) {
            return ps / 1_000_000L + "us";
        }
        if (ps % 1000 == 0) {
            return ps / 1000 + "ns";
        }
        return String.format(Locale.ROOT, "%dps", ps);
    }
}
