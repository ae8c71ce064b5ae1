package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.observe.output.Numbers;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;
import rocelab.workload.job.Dim;
import rocelab.workload.job.Step;

/**
 * Reads a SimAI workload file (the text format AICB generates and SimAI's astra-sim Workload reads) into the
 * degrees of a job's layout and a program in the step language.
 *
 * <p>The file: a header line (the parallelism policy, then {@code key: value} pairs: {@code model_parallel_NPU_group}
 * (TP), {@code ep}, {@code pp}, {@code vpp}, {@code ga}, {@code all_gpus}, {@code checkpoints},
 * {@code checkpoint_initiates}, {@code pp_comm}); the number of layer lines; then per layer, separated by blanks
 * or tabs: name, dependency, forward compute time, forward communication type and size, input-gradient compute time,
 * type and size, weight-gradient compute time, type and size, and the update time. Times are SimAI ticks
 * (nanoseconds), sizes bytes.
 *
 * <p>The program is SimAI's loop for {@code HYBRID_TRANSFORMER(_FWD_IN_BCKWD)}: layers in order, each its forward
 * compute then its forward collective (blocking); then layers in reverse, each its input-gradient compute and
 * collective (blocking), then its weight-gradient compute and its weight-gradient collective on a stream of its own
 * (not blocking, in issue order). Each collective's completion is followed by the layer's update time. For
 * {@code MICRO}, every line's weight-gradient collective, one after the other.
 */
final class SimaiReader {
    /** The degrees of the layout, the program, and what the file has that is not run (said once each). */
    record Workload(Map<Dim, Integer> degrees, List<Step> program, List<String> notes) {}

    private record Token(String text, int line, int column) {}

    private final String file;

    private SimaiReader(String file) {
        this.file = file;
    }

    /** Reads {@code text} (shown as {@code file} in messages) for a job of {@code hosts} ranks. */
    static Workload read(String text, String file, int hosts) throws ScenarioException {
        return new SimaiReader(file).parse(text, hosts);
    }

    private ScenarioException at(Token t, String detail) {
        return new ScenarioException(file, t.line(), t.column(), detail);
    }

    private static List<Token> tokens(String line, int lineNo) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(new Token(line.substring(start, i), lineNo, start + 1));
            }
        }
        return out;
    }

    private Workload parse(String text, int hosts) throws ScenarioException {
        String[] lines = text.split("\r?\n", -1);
        List<Token> header = tokens(lines[0], 1);
        if (header.isEmpty()) {
            throw new ScenarioException(file, 1, 1, "the first line is empty; expected the parallelism policy, e.g."
                    + " HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 ...");
        }
        String policy = header.get(0).text();
        boolean micro = policy.equals("MICRO");
        if (!micro && !policy.equals("HYBRID_TRANSFORMER_FWD_IN_BCKWD") && !policy.equals("HYBRID_TRANSFORMER")) {
            throw at(header.get(0), "'" + policy + "' is not a policy rocelab imports; expected MICRO, HYBRID_TRANSFORMER"
                    + " or HYBRID_TRANSFORMER_FWD_IN_BCKWD (AICB's training and micro-benchmark workloads)");
        }
        List<String> notes = new ArrayList<>();
        long tp = 1;
        long ep = 1;
        long pp = 1;
        long allGpus = -1;
        Token allGpusToken = null;
        for (int i = 1; i < header.size(); i++) {
            Token key = header.get(i);
            String k = key.text().endsWith(":") ? key.text().substring(0, key.text().length() - 1) : key.text();
            if (i + 1 >= header.size()) {
                throw at(key, "'" + key.text() + "' has no value; expected a number after it");
            }
            Token value = header.get(++i);
            switch (k) {
                case "model_parallel_NPU_group" -> tp = positive(value, k);
                case "ep", "expert_parallel_npu_group" -> ep = positive(value, k);
                case "pp" -> pp = positive(value, k);
                case "all_gpus" -> {
                    allGpus = positive(value, k);
                    allGpusToken = value;
                }
                case "vpp", "ga" -> {
                    positive(value, k);
                    notes.add("SimAI header " + k + " " + value.text() + " is read and not used (SimAI uses it only"
                            + " in its analytical pipeline estimate)");
                }
                case "pp_comm" -> {
                    double v = number(value, k);
                    if (v > 0) {
                        notes.add("SimAI header pp_comm " + value.text() + " is read and not simulated: the file has"
                                + " no pipeline transfers (SimAI adds them analytically after its run); each"
                                + " pipeline stage runs the file's layers");
                    }
                }
                case "checkpoints", "checkpoint_initiates" -> {
                    if (nonNegative(value, k) != 0) {
                        throw at(value, k + " " + value.text() + ": activation recomputation (forward in backward) is"
                                + " not imported; expected " + k + ": 0 (write the recomputed forward into the"
                                + " input-gradient compute times)");
                    }
                }
                default -> throw at(key, "'" + key.text() + "' is not a SimAI header key; expected one of"
                        + " model_parallel_NPU_group:, ep:, pp:, vpp:, ga:, all_gpus:, checkpoints:,"
                        + " checkpoint_initiates:, pp_comm:");
            }
        }
        Map<Dim, Integer> degrees = new EnumMap<>(Dim.class);
        for (Dim d : Dim.values()) {
            degrees.put(d, 1);
        }
        if (micro) {
            degrees.put(Dim.DP, hosts);
        } else {
            long world = allGpus > 0 ? allGpus : hosts;
            if (world % (tp * pp * ep) != 0) {
                throw at(allGpusToken != null ? allGpusToken : header.get(0), "all_gpus " + world + " is not a"
                        + " multiple of model_parallel_NPU_group x pp x ep = " + tp * pp * ep + "; expected a whole"
                        + " number of data-parallel replicas");
            }
            degrees.put(Dim.TP, (int) tp);
            degrees.put(Dim.EP, (int) ep);
            degrees.put(Dim.PP, (int) pp);
            degrees.put(Dim.DP, (int) (world / (tp * pp * ep)));
        }
        if (allGpus > 0 && allGpus != hosts) {
            throw at(allGpusToken, "all_gpus " + allGpus + " but the job places " + hosts + " hosts; expected one host"
                    + " per GPU of the workload");
        }
        if (lines.length < 2 || tokens(lines[1], 2).size() != 1) {
            throw new ScenarioException(file, 2, 1, "expected the number of layer lines alone on line 2");
        }
        Token countToken = tokens(lines[1], 2).get(0);
        long count = positive(countToken, "the layer count");
        List<List<Token>> layers = new ArrayList<>();
        int lineNo = 2;
        for (int i = 2; i < lines.length; i++) {
            List<Token> t = tokens(lines[i], i + 1);
            if (t.isEmpty()) {
                continue;
            }
            if (layers.size() == count) {
                throw at(t.get(0), "line " + (i + 1) + " is a layer beyond the " + count + " that line 2 announces;"
                        + " expected " + count + " layer lines");
            }
            if (t.size() != 12) {
                throw at(t.get(Math.min(t.size() - 1, 11)), "a layer line has " + t.size() + " fields; expected 12:"
                        + " name, dependency, forward time, type, size, input-gradient time, type, size,"
                        + " weight-gradient time, type, size, update time");
            }
            layers.add(t);
            lineNo = i + 1;
        }
        if (layers.size() < count) {
            throw new ScenarioException(file, lineNo, 1, "the file has " + layers.size() + " layer lines but line 2"
                    + " announces " + count + "; expected " + count + " layer lines");
        }
        return new Workload(degrees, micro ? microProgram(layers, degrees, notes) : program(layers, degrees, notes),
                notes);
    }

    /** A communication field pair: the collective, its group, its size (0: none). */
    private record Comm(CollectiveOp op, Set<Dim> dims, long bytes) {}

    /**
     * SimAI's communication type: ALLREDUCE, ALLGATHER, REDUCESCATTER or ALLTOALL over the phase's default group
     * (TP for forward and input gradient, DP for weight gradient), with _EP over the expert-parallel group and
     * _DP_EP over the data-parallel group of the experts; NONE for no communication.
     */
    private Comm comm(Token type, Token size, boolean weightGradient) throws ScenarioException {
        String t = type.text();
        long bytes = nonNegative(size, "a communication size");
        if (t.equals("NONE")) {
            return new Comm(null, Set.of(), 0);
        }
        String base = t;
        Set<Dim> dims = weightGradient ? EnumSet.of(Dim.EP, Dim.DP) : EnumSet.of(Dim.TP);
        if (t.endsWith("_DP_EP")) {
            base = t.substring(0, t.length() - 6);
            dims = EnumSet.of(Dim.DP);
        } else if (t.endsWith("_EP")) {
            base = t.substring(0, t.length() - 3);
            dims = EnumSet.of(Dim.EP);
        }
        CollectiveOp op = switch (base) {
            case "ALLREDUCE" -> CollectiveOp.ALL_REDUCE;
            case "ALLGATHER" -> CollectiveOp.ALL_GATHER;
            case "REDUCESCATTER" -> CollectiveOp.REDUCE_SCATTER;
            case "ALLTOALL" -> CollectiveOp.ALL_TO_ALL;
            default -> throw at(type, "'" + t + "' is not a communication type rocelab imports; expected NONE,"
                    + " ALLREDUCE, ALLGATHER, REDUCESCATTER or ALLTOALL, optionally with _EP or _DP_EP");
        };
        return new Comm(op, dims, bytes);
    }

    private List<Step> program(List<List<Token>> layers, Map<Dim, Integer> degrees, List<String> notes)
            throws ScenarioException {
        List<Step> out = new ArrayList<>();
        int[] skipped = new int[1];
        int n = layers.size();
        for (int i = 0; i < n; i++) {
            List<Token> t = layers.get(i);
            String id = i + "-" + name(t.get(0));
            out.add(new Step.Compute(meta("fwd-" + id, "main", List.of()), ticks(t.get(2))));
            Comm c = comm(t.get(3), t.get(4), false);
            if (c.bytes() > 0 && c.bytes() < 4096) {
                // SimAI sends at least 4 KiB for a forward collective.
                c = new Comm(c.op(), c.dims(), 4096);
            }
            collective(out, c, "fwd-comm-" + id, "main", List.of(), ticks(t.get(11)), degrees, skipped);
        }
        for (int i = n - 1; i >= 0; i--) {
            List<Token> t = layers.get(i);
            String id = i + "-" + name(t.get(0));
            out.add(new Step.Compute(meta("ig-" + id, "main", List.of()), ticks(t.get(5))));
            collective(out, comm(t.get(6), t.get(7), false), "ig-comm-" + id, "main", List.of(), ticks(t.get(11)),
                    degrees, skipped);
            out.add(new Step.Compute(meta("wg-" + id, "main", List.of()), ticks(t.get(8))));
            collective(out, comm(t.get(9), t.get(10), true), "wg-comm-" + id, "wg", List.of("wg-" + id),
                    ticks(t.get(11)), degrees, skipped);
        }
        if (skipped[0] > 0) {
            notes.add(Numbers.count(skipped[0], "collective", "collectives") + " over a group of one rank "
                    + (skipped[0] == 1 ? "is" : "are") + " skipped (nothing to exchange)");
        }
        for (List<Token> t : layers) {
            nonNegative(t.get(1), "the dependency");
        }
        notes.add("the dependency column of " + Numbers.count(layers.size(), "layer", "layers") + " is read and not"
                + " used (SimAI does not use it either)");
        notes.add("a rank starts its next iteration when all of its collectives are done, where SimAI lets each"
                + " layer's forward wait only for that layer's weight-gradient collective; SimAI's analytical pipeline"
                + " bubble is not added");
        return out;
    }

    private List<Step> microProgram(List<List<Token>> layers, Map<Dim, Integer> degrees, List<String> notes)
            throws ScenarioException {
        List<Step> out = new ArrayList<>();
        int[] skipped = new int[1];
        int ignored = 0;
        for (int i = 0; i < layers.size(); i++) {
            List<Token> t = layers.get(i);
            nonNegative(t.get(1), "the dependency");
            ticks(t.get(2));
            ticks(t.get(5));
            ticks(t.get(8));
            if (comm(t.get(3), t.get(4), false).bytes() > 0 || comm(t.get(6), t.get(7), false).bytes() > 0) {
                ignored++;
            }
            collective(out, comm(t.get(9), t.get(10), true), "comm-" + i + "-" + name(t.get(0)), "main", List.of(),
                    ticks(t.get(11)), degrees, skipped);
        }
        notes.add("MICRO: compute times are not run and only the weight-gradient collectives are, one after the"
                + " other (as SimAI's micro-benchmark loop)" + (ignored > 0 ? "; " + Numbers.count(ignored, "line's", "lines'")
                + " forward or input-gradient communication is ignored" : ""));
        if (skipped[0] > 0) {
            notes.add(Numbers.count(skipped[0], "collective", "collectives") + " over a group of one rank "
                    + (skipped[0] == 1 ? "is" : "are") + " skipped (nothing to exchange)");
        }
        return out;
    }

    private static void collective(List<Step> out, Comm c, String id, String stream, List<String> after, long updatePs,
            Map<Dim, Integer> degrees, int[] skipped) {
        if (c.op() == null || c.bytes() == 0) {
            return;
        }
        long members = 1;
        for (Dim d : c.dims()) {
            members *= degrees.get(d);
        }
        if (members < 2) {
            skipped[0]++;
            return;
        }
        Algorithm alg = Collectives.defaultAlgorithm(c.op());
        out.add(new Step.Collective(meta(id, stream, after), c.op(), alg, c.dims(), c.bytes(), false, 1, 0));
        if (updatePs > 0) {
            out.add(new Step.Delay(meta(id + "-update", stream, List.of()), updatePs));
        }
    }

    private static Step.Meta meta(String id, String stream, List<String> after) {
        return new Step.Meta(id, stream, after, null, 0, 0);
    }

    /** A layer name as a step id: letters, digits, '.', '_' and '-' kept, anything else '_'. */
    private static String name(Token t) {
        return t.text().replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** A time in SimAI ticks (nanoseconds) as picoseconds. */
    private long ticks(Token t) throws ScenarioException {
        long ns = nonNegative(t, "a time in nanoseconds");
        if (ns > Long.MAX_VALUE / 1000) {
            throw at(t, "time " + t.text() + " ns is too large; expected at most " + Long.MAX_VALUE / 1000);
        }
        return ns * 1000;
    }

    private long positive(Token t, String what) throws ScenarioException {
        long v = nonNegative(t, what);
        if (v < 1 || v > 1 << 20) {
            throw at(t, what + " " + t.text() + " is out of range; expected 1.." + (1 << 20));
        }
        return v;
    }

    private long nonNegative(Token t, String what) throws ScenarioException {
        try {
            long v = Long.parseLong(t.text());
            if (v >= 0 || t.text().equals("-1") && what.equals("the dependency")) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw at(t, "'" + t.text() + "' is not " + (what.startsWith("a ") || what.startsWith("the ") ? what
                : "a valid " + what) + "; expected a whole number >= 0" + (what.equals("the dependency") ? " or -1"
                : ""));
    }

    private double number(Token t, String what) throws ScenarioException {
        try {
            double v = Double.parseDouble(t.text());
            if (v >= 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw at(t, "'" + t.text() + "' is not a valid " + what + "; expected a number >= 0");
    }
}
