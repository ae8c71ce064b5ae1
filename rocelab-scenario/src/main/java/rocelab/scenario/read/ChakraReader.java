package rocelab.scenario.read;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import rocelab.observe.output.Numbers;
import rocelab.scenario.chakra.proto.EtDef;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;
import rocelab.workload.job.Dim;
import rocelab.workload.job.Expr;
import rocelab.workload.job.Layout;
import rocelab.workload.job.Step;

/**
 * Reads a Chakra execution trace set (one {@code .et} file per rank, MLCommons' format that ASTRA-sim reads) into a
 * program in the step language, so an imported trace runs through the same emitter, results and timeline as a
 * written program, at packet and at flow level.
 *
 * <p>How per-rank graphs become one program. Every node becomes part of a <em>unit</em>: a collective instance
 * (the k-th COMM_COLL_NODE each member of a process group issues, in file order: ASTRA-sim's matching, by
 * communicator and order of issue), a transfer (the k-th COMM_SEND_NODE from rank s to rank d with tag t and the
 * k-th COMM_RECV_NODE on d from s with tag t), or a node alone. A unit depends on the units of its nodes'
 * {@code ctrl_deps} and {@code data_deps}; units are placed in levels (one more than the deepest unit they depend
 * on), and a cycle among units is an error (the traces would deadlock). Within a level, units that do the same
 * thing (same node name and duration; same collective, size and group shape; same transfer size and peer offset)
 * share one step whose {@code when} holds for exactly their ranks, as long as every rank's {@code after} then names
 * exactly that rank's dependencies (no rank gains or loses one). Each step has a stream of its own, so only the
 * trace's dependencies order it, with those {@link #serialise} adds so that a rank runs one GPU compute node at a
 * time, as ASTRA-sim does. A transfer is a send step directly followed by its receive step, so the emitter,
 * which pairs sends and receives between two ranks in program order, pairs exactly the nodes the tags matched.
 */
final class ChakraReader {
    /** How the job's scenario completes what a trace does not say. */
    record Options(double opsPerSecond, int channels, Map<CollectiveOp, Algorithm> algorithms) {}

    /** The program, and what the traces have that is not modelled as such (said once each). */
    record Workload(List<Step> program, List<String> notes) {}

    /** The rank files of a trace folder, in rank order, with the names messages show. */
    record Traces(List<Path> files, List<String> shown) {
        int ranks() {
            return files.size();
        }
    }

    private static final Pattern RANK_FILE = Pattern.compile("(?:.*\\.)?(\\d+)\\.et");

    private enum Kind {
        COMPUTE, DELAY, COLLECTIVE, SEND, RECV
    }

    /** One trace node as read. */
    private static final class TNode {
        int rank;
        int message;
        long id;
        String name;
        EtDef.NodeType type;
        long[] deps;
        Kind kind;
        long durationPs;
        CollectiveOp op;
        long size;
        String pg = "";
        int peer = -1;
        long tag;
        int unit = -1;
        int step = -1;
        /** A COMP_NODE with is_cpu_op: host time, one at a time per rank apart from the GPU's. */
        boolean cpu;
        /** When the issue play ({@link #serialise}) issued it to its processor, and when it was done (an order). */
        long issued = Long.MAX_VALUE;
        long done = Long.MAX_VALUE;
    }

    /** Nodes that run together: a collective instance, a send with its receive, or one node. */
    private static final class Unit {
        final List<TNode> nodes = new ArrayList<>();
        Set<Dim> dims;
        int level;
    }

    /** A step being built: its ranks, its dependencies, and each rank's own dependencies. */
    private static final class Draft {
        final String signature;
        final Kind kind;
        final TNode first;
        final TreeSet<Integer> ranks = new TreeSet<>();
        final TreeSet<Integer> after = new TreeSet<>();
        Set<Dim> dims;
        Map<Dim, Integer> delta;
        Draft partner;
        int index;

        Draft(String signature, Kind kind, TNode first) {
            this.signature = signature;
            this.kind = kind;
            this.first = first;
        }
    }

    private final Traces traces;
    private final Layout layout;
    private final Options options;
    private final List<List<TNode>> byRank = new ArrayList<>();
    private final Map<String, Integer> counts = new TreeMap<>();
    private final Map<String, Integer> unusedAttributes = new TreeMap<>();

    private ChakraReader(Traces traces, Layout layout, Options options) {
        this.traces = traces;
        this.layout = layout;
        this.options = options;
    }

    /**
     * The rank files in {@code dir}: every {@code NAME.R.et} (or {@code R.et}), R = 0..n-1 each once. Problems are
     * reported at {@code where} (the scenario's chakra key).
     */
    static Traces list(Path dir, String shownDir, Function<String, ScenarioException> where)
            throws ScenarioException {
        if (!Files.isDirectory(dir)) {
            throw where.apply((Files.exists(dir) ? dir + " is not a folder" : "folder not found: " + dir)
                    + "; expected a folder with one Chakra trace per rank (NAME.0.et, NAME.1.et, ...)");
        }
        TreeMap<Integer, Path> files = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                String f = p.getFileName().toString();
                if (!f.endsWith(".et")) {
                    continue;
                }
                Matcher m = RANK_FILE.matcher(f);
                if (!m.matches() || m.group(1).length() > 7) {
                    throw where.apply(p + " does not name its rank; expected NAME.R.et with R the rank (0, 1, ...)");
                }
                int r = Integer.parseInt(m.group(1));
                Path other = files.put(r, p);
                if (other != null) {
                    throw where.apply(other + " and " + p + " both hold rank " + r + "; expected one file per rank");
                }
            }
        } catch (IOException e) {
            throw where.apply("cannot list " + dir + " (" + e.getClass().getSimpleName() + "); expected a readable"
                    + " folder of Chakra traces");
        }
        if (files.isEmpty()) {
            throw where.apply(dir + " has no .et files; expected one Chakra trace per rank (NAME.0.et, NAME.1.et, ...)");
        }
        if (files.lastKey() != files.size() - 1) {
            int missing = 0;
            while (files.containsKey(missing)) {
                missing++;
            }
            throw where.apply(dir + " has no trace for rank " + missing + " but one for rank " + files.lastKey()
                    + "; expected ranks 0.." + (files.size() - 1) + " each once");
        }
        List<Path> paths = new ArrayList<>(files.values());
        List<String> shown = new ArrayList<>();
        for (Path p : paths) {
            shown.add(shownDir + p.getFileName());
        }
        return new Traces(paths, shown);
    }

    /** Reads every rank's trace and returns the program for {@code layout} (one rank per file). */
    static Workload read(Traces traces, Layout layout, Options options) throws ScenarioException {
        return new ChakraReader(traces, layout, options).run();
    }

    private ScenarioException at(TNode n, String detail) {
        return at(n.rank, n.message, "node " + n.id + (n.name.isEmpty() ? "" : " (" + n.name + ")") + ": " + detail);
    }

    /** A problem in rank {@code rank}'s file, at its {@code message}-th length-delimited message (1: the metadata). */
    private ScenarioException at(int rank, int message, String detail) {
        return new ScenarioException(traces.shown().get(rank), Math.max(1, message), 1, detail);
    }

    private Workload run() throws ScenarioException {
        for (int r = 0; r < traces.ranks(); r++) {
            byRank.add(readFile(r));
        }
        List<Unit> units = new ArrayList<>();
        collectives(units);
        transfers(units);
        for (List<TNode> nodes : byRank) {
            for (TNode n : nodes) {
                if (n.unit < 0) {
                    Unit u = new Unit();
                    u.nodes.add(n);
                    n.unit = units.size();
                    units.add(u);
                }
            }
        }
        serialise(units);
        List<Step> program = program(units);
        List<String> notes = new ArrayList<>();
        counts.forEach((what, count) -> notes.add(count + " " + what));
        if (!unusedAttributes.isEmpty()) {
            StringBuilder b = new StringBuilder("node attributes read and not used:");
            unusedAttributes.forEach((name, count) -> b.append(' ').append(name).append(" (").append(count)
                    .append(count == 1 ? " node)," : " nodes),"));
            b.setLength(b.length() - 1);
            notes.add(b.toString());
        }
        return new Workload(program, notes);
    }

    private void count(String what) {
        counts.merge(what, 1, Integer::sum);
    }

    // ---------------------------------------------------------------- reading one file

    private List<TNode> readFile(int rank) throws ScenarioException {
        List<TNode> nodes = new ArrayList<>();
        Map<Long, TNode> ids = new HashMap<>();
        Path file = traces.files().get(rank);
        boolean[] gzip = {false};
        try (InputStream in = open(file, gzip)) {
            long[] offset = {0};
            byte[] first = message(in, offset, rank, 1, "the metadata", gzip[0]);
            if (first == null) {
                throw at(rank, 1, "the file is empty; expected a Chakra execution trace (length-delimited"
                        + " GlobalMetadata, then Nodes)");
            }
            EtDef.GlobalMetadata meta;
            try {
                meta = EtDef.GlobalMetadata.parseFrom(first);
            } catch (IOException e) {
                throw at(rank, 1, "the first message is not a Chakra GlobalMetadata (" + e.getMessage() + "); expected"
                        + " a Chakra execution trace (length-delimited GlobalMetadata, then Nodes)");
            }
            if (!meta.getAttrList().isEmpty()) {
                count("GlobalMetadata attributes read and not used (" + meta.getAttrCount() + " in rank " + rank
                        + "'s file)");
            }
            int message = 1;
            while (true) {
                message++;
                String last = nodes.isEmpty() ? "the metadata" : "node " + nodes.get(nodes.size() - 1).id;
                byte[] bytes = message(in, offset, rank, message, last, gzip[0]);
                if (bytes == null) {
                    break;
                }
                EtDef.Node proto;
                try {
                    proto = EtDef.Node.parseFrom(bytes);
                } catch (IOException e) {
                    throw at(rank, message, "the message after " + last + " is not a Chakra Node (" + e.getMessage()
                            + "); expected whole length-delimited Node messages to the end of the file");
                }
                TNode n = node(proto, rank, message);
                if (ids.put(n.id, n) != null) {
                    throw at(n, "a second node with id " + n.id + "; expected unique node ids in a rank's trace");
                }
                nodes.add(n);
            }
        } catch (IOException e) {
            throw at(rank, 1, "cannot read the file (" + e.getClass().getSimpleName() + "); expected a readable"
                    + " Chakra trace");
        }
        for (TNode n : nodes) {
            for (long d : n.deps) {
                if (d == n.id) {
                    throw at(n, "depends on itself; expected ctrl_deps and data_deps naming other nodes");
                }
                if (!ids.containsKey(d)) {
                    throw at(n, "depends on node " + d + ", which is not in this rank's trace; expected ctrl_deps and"
                            + " data_deps naming nodes of the same file");
                }
            }
        }
        return nodes;
    }

    /**
     * The next length-delimited message of {@code in}, all the bytes its length prefix announced, or null at the end
     * of the file (before a prefix); {@code offset} counts the bytes read. A prefix or a message cut short is an
     * error at the message, with where it starts and how long it said it was: a protobuf parser reading only what is
     * there would take a message cut on a field boundary for a whole one.
     */
    private byte[] message(InputStream in, long[] offset, int rank, int message, String last, boolean gzip)
            throws IOException, ScenarioException {
        try {
            return readMessage(in, offset, rank, message, last, gzip);
        } catch (IOException e) {
            if (!gzip) {
                throw e;
            }
            // A cut or corrupt gzip stream under the messages.
            throw at(rank, message, (message == 1 ? "the metadata message" : "the message after " + last) + " cannot"
                    + " be decompressed, at byte " + offset[0] + " of the decompressed stream (" + e.getMessage()
                    + "); expected a whole gzip stream of length-delimited messages");
        }
    }

    private byte[] readMessage(InputStream in, long[] offset, int rank, int message, String last, boolean gzip)
            throws IOException, ScenarioException {
        long start = offset[0];
        String where = " at byte " + start + (gzip ? " of the decompressed stream" : "");
        String what = message == 1 ? "the metadata message" : "the message after " + last;
        long length = 0;
        for (int shift = 0; ; shift += 7) {
            int b = in.read();
            if (b < 0) {
                if (shift == 0) {
                    return null;
                }
                throw at(rank, message, what + " is truncated: the file ends inside its length prefix" + where
                        + "; expected whole length-delimited messages to the end of the file");
            }
            offset[0]++;
            if (shift == 63 && (b & 0x7e) != 0 || shift > 63) {
                throw at(rank, message, what + " has a length prefix" + where + " longer than 64 bits; expected a"
                        + " varint length before each message");
            }
            length |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
        }
        if (length < 0 || length > Integer.MAX_VALUE - 8) {
            throw at(rank, message, what + " announces " + Long.toUnsignedString(length) + " bytes" + where
                    + "; expected a message of at most " + (Integer.MAX_VALUE - 8) + " bytes");
        }
        // Read in pieces, so that a corrupt prefix announcing a huge message does not allocate it before the file ends.
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(length, 1 << 16));
        byte[] piece = new byte[(int) Math.min(length, 1 << 16)];
        long got = 0;
        while (got < length) {
            int n = in.read(piece, 0, (int) Math.min(piece.length, length - got));
            if (n < 0) {
                break;
            }
            out.write(piece, 0, n);
            got += n;
        }
        offset[0] += got;
        if (got < length) {
            throw at(rank, message, what + " is truncated: its length prefix" + where + " announces " + length
                    + " bytes, but the file ends " + got + " bytes into it; expected whole length-delimited messages"
                    + " to the end of the file");
        }
        return out.toByteArray();
    }

    /** The file's messages; a gzip-compressed file (Chakra's protolib reads both) is decompressed on the way. */
    private static InputStream open(Path file, boolean[] gzip) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        raw.mark(2);
        int b0 = raw.read();
        int b1 = raw.read();
        raw.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            gzip[0] = true;
            return new BufferedInputStream(new GZIPInputStream(raw));
        }
        return raw;
    }

    private TNode node(EtDef.Node p, int rank, int message) throws ScenarioException {
        TNode n = new TNode();
        n.rank = rank;
        n.message = message;
        n.id = p.getId();
        n.name = p.getName();
        n.type = p.getType();
        long[] deps = new long[p.getCtrlDepsCount() + p.getDataDepsCount()];
        for (int i = 0; i < p.getCtrlDepsCount(); i++) {
            deps[i] = p.getCtrlDeps(i);
        }
        for (int i = 0; i < p.getDataDepsCount(); i++) {
            deps[p.getCtrlDepsCount() + i] = p.getDataDeps(i);
        }
        n.deps = Arrays.stream(deps).distinct().toArray();
        Map<String, EtDef.AttributeProto> attrs = new LinkedHashMap<>();
        for (EtDef.AttributeProto a : p.getAttrList()) {
            if (attrs.put(a.getName(), a) != null) {
                throw at(n, "attribute " + a.getName() + " is given twice; expected each attribute once");
            }
        }
        Set<String> used = new HashSet<>();
        if (p.getStartTimeMicros() != 0) {
            count("start_time_micros values read and not used (a node starts when its dependencies are done)");
        }
        if (p.hasInputs() || p.hasOutputs()) {
            count("nodes' inputs/outputs tensor descriptions read and not used");
        }
        switch (p.getType()) {
            case COMP_NODE -> {
                boolean cpu = attrs.containsKey("is_cpu_op") && bool(n, attrs.get("is_cpu_op"));
                used.add("is_cpu_op");
                long ops = attrs.containsKey("num_ops") ? integer(n, attrs.get("num_ops"), 0, Long.MAX_VALUE) : 0;
                used.add("num_ops");
                if (p.getDurationMicros() != 0 || ops == 0) {
                    n.durationPs = micros(n, p.getDurationMicros());
                    if (ops != 0) {
                        count("COMP_NODE num_ops values not used (the node's duration_micros is)");
                    }
                    if (p.getDurationMicros() == 0) {
                        count("COMP_NODE nodes with neither duration_micros nor num_ops run as zero-length");
                    }
                } else {
                    if (options.opsPerSecond() <= 0) {
                        throw at(n, "a COMP_NODE with num_ops " + ops + " and no duration_micros; expected"
                                + " duration_micros, or the GPU's rate in the job: chakra: {traces: DIR,"
                                + " ops-per-second: ...}");
                    }
                    n.durationPs = Math.round(ops / options.opsPerSecond() * 1e12);
                    count("COMP_NODE nodes timed from num_ops at " + new BigDecimal(options.opsPerSecond() / 1e12)
                            .round(MathContext.DECIMAL64).stripTrailingZeros().toPlainString() + " Tops/s");
                }
                n.kind = cpu ? Kind.DELAY : Kind.COMPUTE;
                n.cpu = cpu;
                if (cpu) {
                    count("COMP_NODE nodes with is_cpu_op run as delays (host time, not GPU time)");
                }
            }
            case MEM_LOAD_NODE, MEM_STORE_NODE, METADATA_NODE -> {
                n.kind = Kind.DELAY;
                n.durationPs = micros(n, p.getDurationMicros());
                count(p.getType().name() + (p.getType() == EtDef.NodeType.METADATA_NODE
                        ? " nodes run as delays of their duration_micros (no work)"
                        : " nodes run as delays of their duration_micros (no memory model)"));
            }
            case COMM_COLL_NODE -> {
                n.kind = Kind.COLLECTIVE;
                long type = integer(n, require(n, attrs, "comm_type", "the collective (a CollectiveCommType)"), 0,
                        Integer.MAX_VALUE);
                used.add("comm_type");
                n.op = switch ((int) type) {
                    case EtDef.CollectiveCommType.ALL_REDUCE_VALUE -> CollectiveOp.ALL_REDUCE;
                    case EtDef.CollectiveCommType.REDUCE_VALUE -> CollectiveOp.REDUCE;
                    case EtDef.CollectiveCommType.ALL_GATHER_VALUE -> CollectiveOp.ALL_GATHER;
                    case EtDef.CollectiveCommType.BROADCAST_VALUE -> CollectiveOp.BROADCAST;
                    case EtDef.CollectiveCommType.ALL_TO_ALL_VALUE -> CollectiveOp.ALL_TO_ALL;
                    case EtDef.CollectiveCommType.REDUCE_SCATTER_VALUE,
                            EtDef.CollectiveCommType.REDUCE_SCATTER_BLOCK_VALUE -> CollectiveOp.REDUCE_SCATTER;
                    case EtDef.CollectiveCommType.BARRIER_VALUE -> CollectiveOp.BARRIER;
                    default -> throw at(n, "comm_type " + type + (EtDef.CollectiveCommType.forNumber((int) type)
                            == null ? "" : " (" + EtDef.CollectiveCommType.forNumber((int) type) + ")") + " is not a"
                            + " collective rocelab models; expected ALL_REDUCE, REDUCE, ALL_GATHER, BROADCAST,"
                            + " ALL_TO_ALL, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK or BARRIER");
                };
                if (type == EtDef.CollectiveCommType.REDUCE_SCATTER_BLOCK_VALUE) {
                    count("REDUCE_SCATTER_BLOCK collectives run as ReduceScatter");
                }
                if (n.op.rooted()) {
                    count(n.op.title() + " collectives rooted at the first rank of their group (Chakra names no"
                            + " root)");
                }
                if (n.op != CollectiveOp.BARRIER) {
                    n.size = integer(n, require(n, attrs, "comm_size", "the bytes of the rank's input"), 1,
                            Long.MAX_VALUE);
                } else if (attrs.containsKey("comm_size")) {
                    integer(n, attrs.get("comm_size"), 0, Long.MAX_VALUE);
                }
                used.add("comm_size");
                if (attrs.containsKey("pg_name")) {
                    n.pg = string(n, attrs.get("pg_name"));
                }
                used.add("pg_name");
            }
            case COMM_SEND_NODE, COMM_RECV_NODE -> {
                boolean send = p.getType() == EtDef.NodeType.COMM_SEND_NODE;
                n.kind = send ? Kind.SEND : Kind.RECV;
                String peerKey = send ? "comm_dst" : "comm_src";
                String selfKey = send ? "comm_src" : "comm_dst";
                n.peer = (int) integer(n, require(n, attrs, peerKey, "the peer rank"), 0, Integer.MAX_VALUE);
                if (n.peer >= traces.ranks() || n.peer == rank) {
                    throw at(n, peerKey + " " + n.peer + " is " + (n.peer == rank ? "the node's own rank" : "not a"
                            + " rank of the trace set") + "; expected another rank 0.." + (traces.ranks() - 1));
                }
                if (attrs.containsKey(selfKey)) {
                    long self = integer(n, attrs.get(selfKey), 0, Integer.MAX_VALUE);
                    if (self != rank) {
                        throw at(n, selfKey + " " + self + " but the file is rank " + rank + "'s; expected " + selfKey
                                + " " + rank + " (or none)");
                    }
                }
                n.tag = attrs.containsKey("comm_tag") ? integer(n, attrs.get("comm_tag"), Integer.MIN_VALUE,
                        Long.MAX_VALUE) : 0;
                if (send) {
                    n.size = integer(n, require(n, attrs, "comm_size", "the bytes sent"), 1, Long.MAX_VALUE);
                } else if (attrs.containsKey("comm_size")) {
                    n.size = integer(n, attrs.get("comm_size"), 1, Long.MAX_VALUE);
                }
                used.addAll(List.of("comm_src", "comm_dst", "comm_tag", "comm_size"));
            }
            default -> throw at(n, "node type " + p.getType() + (p.getType() == EtDef.NodeType.UNRECOGNIZED
                    ? " (" + p.getTypeValue() + ")" : "") + " cannot be run; expected COMP_NODE, COMM_COLL_NODE,"
                    + " COMM_SEND_NODE, COMM_RECV_NODE, MEM_LOAD_NODE, MEM_STORE_NODE or METADATA_NODE");
        }
        if (n.kind != Kind.COMPUTE && n.kind != Kind.DELAY && p.getDurationMicros() != 0) {
            count("communication nodes' duration_micros read and not used (the fabric times them)");
        }
        for (String a : attrs.keySet()) {
            if (!used.contains(a)) {
                unusedAttributes.merge(a, 1, Integer::sum);
            }
        }
        return n;
    }

    private long micros(TNode n, long micros) throws ScenarioException {
        if (micros < 0 || micros > Long.MAX_VALUE / 1_000_000) {
            throw at(n, "duration_micros " + Long.toUnsignedString(micros) + " is too long; expected at most "
                    + Long.MAX_VALUE / 1_000_000 + " microseconds");
        }
        return micros * 1_000_000;
    }

    private EtDef.AttributeProto require(TNode n, Map<String, EtDef.AttributeProto> attrs, String name, String what)
            throws ScenarioException {
        EtDef.AttributeProto a = attrs.get(name);
        if (a == null) {
            throw at(n, "a " + n.type + " without the attribute " + name + "; expected " + name + " (" + what + ")");
        }
        return a;
    }

    /** An integer attribute in whichever integer field it was written. */
    private long integer(TNode n, EtDef.AttributeProto a, long min, long max) throws ScenarioException {
        long v;
        switch (a.getValueCase()) {
            case INT32_VAL -> v = a.getInt32Val();
            case INT64_VAL -> v = a.getInt64Val();
            case UINT32_VAL -> v = Integer.toUnsignedLong(a.getUint32Val());
            case UINT64_VAL -> v = a.getUint64Val();
            case SINT32_VAL -> v = a.getSint32Val();
            case SINT64_VAL -> v = a.getSint64Val();
            case FIXED32_VAL -> v = Integer.toUnsignedLong(a.getFixed32Val());
            case FIXED64_VAL -> v = a.getFixed64Val();
            case SFIXED32_VAL -> v = a.getSfixed32Val();
            case SFIXED64_VAL -> v = a.getSfixed64Val();
            default -> throw at(n, "attribute " + a.getName() + " holds " + field(a) + "; expected an integer"
                    + " (int64_val, as Chakra writes it)");
        }
        if (v < min || v > max) {
            throw at(n, "attribute " + a.getName() + " is " + v + "; expected " + (max == Long.MAX_VALUE
                    ? "at least " + min : min + ".." + max));
        }
        return v;
    }

    private boolean bool(TNode n, EtDef.AttributeProto a) throws ScenarioException {
        if (a.getValueCase() != EtDef.AttributeProto.ValueCase.BOOL_VAL) {
            throw at(n, "attribute " + a.getName() + " holds " + field(a) + "; expected bool_val");
        }
        return a.getBoolVal();
    }

    private String string(TNode n, EtDef.AttributeProto a) throws ScenarioException {
        if (a.getValueCase() != EtDef.AttributeProto.ValueCase.STRING_VAL) {
            throw at(n, "attribute " + a.getName() + " holds " + field(a) + "; expected string_val");
        }
        return a.getStringVal();
    }

    private static String field(EtDef.AttributeProto a) {
        return a.getValueCase() == EtDef.AttributeProto.ValueCase.VALUE_NOT_SET ? "no value"
                : a.getValueCase().name().toLowerCase(Locale.ROOT);
    }

    // ---------------------------------------------------------------- matching across ranks

    /**
     * Joins collectives: a process group's members are the ranks whose traces issue a collective in it (every
     * member takes part in every collective of its group, so this is exact); the k-th collective of each member in
     * the group is one call. An unnamed group is the whole job.
     */
    private void collectives(List<Unit> units) throws ScenarioException {
        TreeMap<String, TreeMap<Integer, List<TNode>>> groups = new TreeMap<>();
        for (List<TNode> nodes : byRank) {
            for (TNode n : nodes) {
                if (n.kind == Kind.COLLECTIVE) {
                    groups.computeIfAbsent(n.pg, k -> new TreeMap<>()).computeIfAbsent(n.rank, k -> new ArrayList<>())
                            .add(n);
                }
            }
        }
        for (Map.Entry<String, TreeMap<Integer, List<TNode>>> g : groups.entrySet()) {
            String pg = g.getKey();
            String label = pg.isEmpty() ? "the job's group (no pg_name)" : "process group '" + pg + "'";
            TreeMap<Integer, List<TNode>> members = g.getValue();
            if (pg.isEmpty() && members.size() < traces.ranks()) {
                int absent = 0;
                while (members.containsKey(absent)) {
                    absent++;
                }
                TNode first = members.firstEntry().getValue().get(0);
                throw at(first, "a collective without pg_name (the whole job), but rank " + absent + " issues no"
                        + " such collective; expected every rank to take part, or a pg_name naming the group");
            }
            int[] ranks = members.keySet().stream().mapToInt(Integer::intValue).toArray();
            if (ranks.length == 1) {
                lonelyGroup(label, members.firstEntry().getValue(), groups);
            }
            Set<Dim> dims = dims(ranks, members.firstEntry().getValue().get(0), label);
            int calls = -1;
            int fewest = -1;
            for (Map.Entry<Integer, List<TNode>> m : members.entrySet()) {
                if (calls < 0 || m.getValue().size() < calls) {
                    calls = m.getValue().size();
                    fewest = m.getKey();
                }
            }
            for (Map.Entry<Integer, List<TNode>> m : members.entrySet()) {
                if (m.getValue().size() > calls) {
                    TNode extra = m.getValue().get(calls);
                    throw at(extra, "collective " + (calls + 1) + " of rank " + m.getKey() + " in " + label
                            + " has no partner: rank " + fewest + " issues only " + calls + "; expected every member"
                            + " to issue the group's collectives in the same order");
                }
            }
            for (int k = 0; k < calls; k++) {
                Unit u = new Unit();
                u.dims = dims;
                TNode lead = members.firstEntry().getValue().get(k);
                for (List<TNode> list : members.values()) {
                    TNode n = list.get(k);
                    if (n.op != lead.op || n.size != lead.size) {
                        throw at(n, "collective " + (k + 1) + " in " + label + " is " + n.op.title() + " of "
                                + n.size + " bytes here but " + lead.op.title() + " of " + lead.size + " bytes on"
                                + " rank " + lead.rank + " (node " + lead.id + "); expected the members' k-th"
                                + " collectives in a group to be the same call");
                    }
                    n.unit = units.size();
                    u.nodes.add(n);
                }
                units.add(u);
            }
        }
    }

    /**
     * A process group of one rank is inferred from the traces (its members are the ranks that issue its collectives),
     * so a trace cut short at a node's end looks the same as a group of one: its collectives would run as free no-ops.
     * Where the same calls (the same collectives, sizes and node names, in order) run in a group of two or more ranks
     * elsewhere, the group is a cut trace's, not one rank's: refused, naming both.
     */
    private void lonelyGroup(String label, List<TNode> calls, TreeMap<String, TreeMap<Integer, List<TNode>>> groups)
            throws ScenarioException {
        for (Map.Entry<String, TreeMap<Integer, List<TNode>>> other : groups.entrySet()) {
            TreeMap<Integer, List<TNode>> members = other.getValue();
            if (members.size() < 2) {
                continue;
            }
            List<TNode> theirs = members.firstEntry().getValue();
            if (theirs.size() != calls.size()) {
                continue;
            }
            boolean same = true;
            for (int k = 0; k < calls.size() && same; k++) {
                TNode a = calls.get(k);
                TNode b = theirs.get(k);
                same = a.op == b.op && a.size == b.size && Objects.equals(a.name, b.name);
            }
            if (same) {
                TNode first = calls.get(0);
                String pg = other.getKey();
                throw at(first, label + " has one rank, " + first.rank + ", so its " + calls.size() + " collective"
                        + (calls.size() == 1 ? "" : "s") + " would exchange nothing, but the same call"
                        + (calls.size() == 1 ? "" : "s") + " (" + first.op.title() + " of " + first.size + " bytes, '"
                        + first.name + "'" + (calls.size() == 1 ? "" : ", ...") + ") run over " + members.size()
                        + " ranks in " + (pg.isEmpty() ? "the job's group" : "process group '" + pg + "'")
                        + "; expected the traces of the group's other ranks to issue them too (a trace cut short?)");
            }
        }
    }

    /** The dimensions whose group is exactly {@code ranks}; all of them for the whole job. */
    private Set<Dim> dims(int[] ranks, TNode first, String label) throws ScenarioException {
        if (ranks.length == layout.size()) {
            return EnumSet.allOf(Dim.class);
        }
        Set<Dim> dims = EnumSet.noneOf(Dim.class);
        for (Dim d : Dim.values()) {
            for (int r : ranks) {
                if (layout.coord(r, d) != layout.coord(ranks[0], d)) {
                    dims.add(d);
                }
            }
        }
        if (ranks.length < 2) {
            return dims;
        }
        if (!Arrays.equals(layout.group(ranks[0], dims), ranks)) {
            throw at(first, label + " has ranks " + Numbers.ranges(ranks, "") + ", which are not a group of the job's layout ("
                    + degreesText() + "); expected a parallelism and order under which each process group is the"
                    + " ranks that differ only in some dimensions (e.g. parallelism: {tp: 2, dp: 2})");
        }
        return dims;
    }

    private String degreesText() {
        List<String> d = new ArrayList<>();
        for (Dim o : layout.order()) {
            if (layout.degree(o) > 1) {
                d.add(o.key() + " " + layout.degree(o));
            }
        }
        return d.isEmpty() ? "one rank" : String.join(" x ", d) + ", " + layout.order().get(0).key()
                + " fastest";
    }

    /** Pairs the k-th send from s to d with tag t with the k-th receive on d from s with tag t, in file order. */
    private void transfers(List<Unit> units) throws ScenarioException {
        Map<List<Long>, ArrayDeque<TNode>> recvs = new HashMap<>();
        for (List<TNode> nodes : byRank) {
            for (TNode n : nodes) {
                if (n.kind == Kind.RECV) {
                    recvs.computeIfAbsent(List.of((long) n.peer, (long) n.rank, n.tag), k -> new ArrayDeque<>())
                            .add(n);
                }
            }
        }
        for (List<TNode> nodes : byRank) {
            for (TNode n : nodes) {
                if (n.kind != Kind.SEND) {
                    continue;
                }
                ArrayDeque<TNode> q = recvs.get(List.of((long) n.rank, (long) n.peer, n.tag));
                TNode r = q == null ? null : q.poll();
                if (r == null) {
                    throw at(n, "a send to rank " + n.peer + " with tag " + n.tag + " that rank " + n.peer + " never"
                            + " receives (" + traces.shown().get(n.peer) + " has no further COMM_RECV_NODE with"
                            + " comm_src " + n.rank + " and comm_tag " + n.tag + "); expected a matching receive");
                }
                if (r.size != 0 && r.size != n.size) {
                    throw at(r, "receives " + r.size + " bytes but its send (node " + n.id + " on rank " + n.rank
                            + ") sends " + n.size + "; expected the same comm_size on both sides (or none on the"
                            + " receive)");
                }
                Unit u = new Unit();
                u.nodes.add(n);
                u.nodes.add(r);
                n.unit = units.size();
                r.unit = units.size();
                units.add(u);
            }
        }
        TNode unmatched = null;
        for (ArrayDeque<TNode> q : recvs.values()) {
            for (TNode r : q) {
                if (unmatched == null || r.rank < unmatched.rank || r.rank == unmatched.rank
                        && r.message < unmatched.message) {
                    unmatched = r;
                }
            }
        }
        if (unmatched != null) {
            throw at(unmatched, "a receive from rank " + unmatched.peer + " with tag " + unmatched.tag + " that rank "
                    + unmatched.peer + " never sends; expected a matching COMM_SEND_NODE in "
                    + traces.shown().get(unmatched.peer));
        }
    }

    // ---------------------------------------------------------------- one kernel at a time

    /**
     * Makes each rank's GPU compute nodes run one at a time, and its CPU nodes ({@code is_cpu_op}) one at a time
     * apart from them, as ASTRA-sim's HardwareResource does (a compute node issues only when no other of its kind is
     * in flight on the NPU; communication issues alongside), in the order ASTRA-sim issues them: whenever the GPU (or
     * the CPU) is free, the ready node with the lowest id. The order is found here, by playing the traces' issue with
     * the nodes' own durations, and written into the program as a dependency of each such node on the one issued
     * before it on its rank. Communication times are the fabric's, unknown here, so the play takes a call or transfer
     * (all of whose nodes are issued) to end only when none of its ranks has compute or a delay running: work that
     * does not wait for communication is ordered before work that does, so the added order never makes compute wait
     * for communication it does not depend on, and it is an order the traces can run in (no deadlock added).
     */
    private void serialise(List<Unit> units) {
        record Event(long time, long seq, TNode node) {}
        Map<Long, TNode>[] ids = ids();
        Map<TNode, List<TNode>> children = new HashMap<>();
        Map<TNode, Integer> waiting = new HashMap<>();
        int ranks = byRank.size();
        Comparator<TNode> byId = Comparator.comparingLong(x -> x.id);
        List<PriorityQueue<TNode>> readyGpu = new ArrayList<>();
        List<PriorityQueue<TNode>> readyCpu = new ArrayList<>();
        boolean[] gpuBusy = new boolean[ranks];
        boolean[] cpuBusy = new boolean[ranks];
        int[] running = new int[ranks];
        TNode[] lastGpu = new TNode[ranks];
        TNode[] lastCpu = new TNode[ranks];
        int[] issued = new int[units.size()];
        List<Unit> full = new ArrayList<>();
        // Whether a call or transfer may have become able to end (one became whole, or a rank fell idle).
        boolean[] scan = {true};
        PriorityQueue<Event> events = new PriorityQueue<>(
                Comparator.comparingLong(Event::time).thenComparingLong(Event::seq));
        long[] seq = {0};
        long[] now = {0};
        int added = 0;
        for (int r = 0; r < ranks; r++) {
            readyGpu.add(new PriorityQueue<>(byId));
            readyCpu.add(new PriorityQueue<>(byId));
            for (TNode n : byRank.get(r)) {
                waiting.put(n, n.deps.length);
                for (long d : n.deps) {
                    children.computeIfAbsent(ids[r].get(d), k -> new ArrayList<>()).add(n);
                }
            }
        }
        // A node whose dependencies are done: queued for its processor, started (a delay), or issued (communication).
        Consumer<TNode> ready = n -> {
            if (n.kind == Kind.COMPUTE) {
                readyGpu.get(n.rank).add(n);
            } else if (n.kind == Kind.DELAY && n.cpu) {
                readyCpu.get(n.rank).add(n);
            } else if (n.kind == Kind.DELAY) {
                running[n.rank]++;
                events.add(new Event(now[0] + n.durationPs, seq[0]++, n));
            } else if (++issued[n.unit] == units.get(n.unit).nodes.size()) {
                full.add(units.get(n.unit));
                scan[0] = true;
            }
        };
        long[] order = {0};
        Consumer<TNode> done = n -> {
            n.done = order[0]++;
            for (TNode c : children.getOrDefault(n, List.of())) {
                if (waiting.merge(c, -1, Integer::sum) == 0) {
                    ready.accept(c);
                }
            }
        };
        for (List<TNode> nodes : byRank) {
            for (TNode n : nodes) {
                if (n.deps.length == 0) {
                    ready.accept(n);
                }
            }
        }
        while (true) {
            for (int r = 0; r < ranks; r++) {
                if (!gpuBusy[r] && !readyGpu.get(r).isEmpty()) {
                    TNode n = readyGpu.get(r).poll();
                    n.issued = order[0]++;
                    added += follow(n, lastGpu[r], ids[r]);
                    lastGpu[r] = n;
                    gpuBusy[r] = true;
                    running[r]++;
                    events.add(new Event(now[0] + n.durationPs, seq[0]++, n));
                }
                if (!cpuBusy[r] && !readyCpu.get(r).isEmpty()) {
                    TNode n = readyCpu.get(r).poll();
                    n.issued = order[0]++;
                    added += follow(n, lastCpu[r], ids[r]);
                    lastCpu[r] = n;
                    cpuBusy[r] = true;
                    running[r]++;
                    events.add(new Event(now[0] + n.durationPs, seq[0]++, n));
                }
            }
            // The first issued call or transfer whose ranks have nothing running ends now.
            Unit ends = null;
            if (scan[0]) {
                for (Unit u : full) {
                    boolean idle = true;
                    for (TNode n : u.nodes) {
                        idle &= running[n.rank] == 0;
                    }
                    if (idle) {
                        ends = u;
                        break;
                    }
                }
                scan[0] = ends != null;
            }
            if (ends != null) {
                full.remove(ends);
                for (TNode n : ends.nodes) {
                    done.accept(n);
                }
                continue;
            }
            if (events.isEmpty()) {
                // Done, or stuck: a deadlock of the traces themselves, which program() reports.
                break;
            }
            now[0] = events.peek().time();
            while (!events.isEmpty() && events.peek().time() == now[0]) {
                TNode n = events.poll().node();
                if (--running[n.rank] == 0) {
                    scan[0] = true;
                }
                if (n.kind == Kind.COMPUTE) {
                    gpuBusy[n.rank] = false;
                } else if (n.cpu) {
                    cpuBusy[n.rank] = false;
                }
                done.accept(n);
            }
        }
        if (added > 0) {
            counts.merge("dependencies added so that each rank's GPU compute nodes, and its is_cpu_op nodes, run one"
                    + " at a time in ASTRA-sim's issue order (the ready node with the lowest id first)", added,
                    Integer::sum);
        }
    }

    /**
     * Makes {@code n} wait for {@code previous} (none: first) unless it already does through its rank's own
     * dependencies; 1 if the dependency is added. The search back from {@code n} stops at nodes done before
     * {@code previous} was issued, which cannot depend on it.
     */
    private static int follow(TNode n, TNode previous, Map<Long, TNode> ids) {
        if (previous == null) {
            return 0;
        }
        ArrayDeque<TNode> todo = new ArrayDeque<>();
        Set<TNode> seen = new HashSet<>();
        todo.add(n);
        while (!todo.isEmpty()) {
            for (long d : todo.poll().deps) {
                TNode x = ids.get(d);
                if (x == previous) {
                    return 0;
                }
                if (x.done > previous.issued && seen.add(x)) {
                    todo.add(x);
                }
            }
        }
        n.deps = Arrays.copyOf(n.deps, n.deps.length + 1);
        n.deps[n.deps.length - 1] = previous.id;
        return 1;
    }

    // ---------------------------------------------------------------- the program

    private List<Step> program(List<Unit> units) throws ScenarioException {
        Map<Long, TNode>[] ids = ids();
        int u = units.size();
        List<TreeSet<Integer>> deps = new ArrayList<>();
        List<List<Integer>> dependents = new ArrayList<>();
        for (int i = 0; i < u; i++) {
            dependents.add(new ArrayList<>());
        }
        for (int i = 0; i < u; i++) {
            TreeSet<Integer> d = new TreeSet<>();
            for (TNode n : units.get(i).nodes) {
                for (long id : n.deps) {
                    d.add(ids[n.rank].get(id).unit);
                }
            }
            if (d.contains(i)) {
                TNode n = units.get(i).nodes.get(0);
                throw at(n, "waits for its own " + (n.kind == Kind.COLLECTIVE ? "collective" : "transfer")
                        + " through a dependency of a partner rank; expected dependencies that lead to earlier work");
            }
            deps.add(d);
            for (int x : d) {
                dependents.get(x).add(i);
            }
        }
        int[] waiting = new int[u];
        ArrayDeque<Integer> ready = new ArrayDeque<>();
        for (int i = 0; i < u; i++) {
            waiting[i] = deps.get(i).size();
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        int placed = 0;
        int levels = 0;
        while (!ready.isEmpty()) {
            int i = ready.poll();
            placed++;
            Unit unit = units.get(i);
            for (int x : deps.get(i)) {
                unit.level = Math.max(unit.level, units.get(x).level + 1);
            }
            levels = Math.max(levels, unit.level + 1);
            for (int x : dependents.get(i)) {
                if (--waiting[x] == 0) {
                    ready.add(x);
                }
            }
        }
        if (placed < u) {
            TNode stuck = null;
            for (int i = 0; i < u; i++) {
                if (waiting[i] > 0) {
                    for (TNode n : units.get(i).nodes) {
                        if (stuck == null || n.rank < stuck.rank || n.rank == stuck.rank && n.message < stuck.message) {
                            stuck = n;
                        }
                    }
                }
            }
            throw at(stuck, "can never start: its dependencies, through collectives and send/receive pairs of other"
                    + " ranks, lead back to it (the traces would deadlock); expected dependencies that every rank can"
                    + " meet in order");
        }
        List<List<Unit>> byLevel = new ArrayList<>();
        for (int l = 0; l < levels; l++) {
            byLevel.add(new ArrayList<>());
        }
        for (Unit unit : units) {
            byLevel.get(unit.level).add(unit);
        }
        List<Draft> drafts = new ArrayList<>();
        for (List<Unit> level : byLevel) {
            // In rank order, then in each rank's file order: the order the ranks' work is written in.
            level.sort((a, b) -> {
                TNode x = a.nodes.get(0);
                TNode y = b.nodes.get(0);
                return x.rank != y.rank ? Integer.compare(x.rank, y.rank) : Integer.compare(x.message, y.message);
            });
            List<Draft> open = new ArrayList<>();
            for (Unit unit : level) {
                place(unit, open, drafts, ids);
            }
        }
        return steps(drafts);
    }

    @SuppressWarnings("unchecked")
    private Map<Long, TNode>[] ids() {
        Map<Long, TNode>[] ids = new Map[byRank.size()];
        for (int r = 0; r < byRank.size(); r++) {
            ids[r] = new HashMap<>();
            for (TNode n : byRank.get(r)) {
                ids[r].put(n.id, n);
            }
        }
        return ids;
    }

    /** The steps that a node's dependencies are in. */
    private TreeSet<Integer> depSteps(TNode n, Map<Long, TNode>[] ids) {
        TreeSet<Integer> s = new TreeSet<>();
        for (long id : n.deps) {
            s.add(ids[n.rank].get(id).step);
        }
        return s;
    }

    private void place(Unit unit, List<Draft> open, List<Draft> drafts, Map<Long, TNode>[] ids) {
        TNode first = unit.nodes.get(0);
        if (first.kind == Kind.SEND) {
            TNode recv = unit.nodes.get(1);
            Map<Dim, Integer> delta = new EnumMap<>(Dim.class);
            for (Dim d : Dim.values()) {
                int v = layout.coord(recv.rank, d) - layout.coord(first.rank, d);
                if (v != 0) {
                    delta.put(d, v);
                }
            }
            String sig = "transfer " + first.size + " " + delta + " " + first.name + " " + recv.name;
            Map<Integer, TreeSet<Integer>> sendDeps = Map.of(first.rank, depSteps(first, ids));
            Map<Integer, TreeSet<Integer>> recvDeps = Map.of(recv.rank, depSteps(recv, ids));
            for (Draft d : open) {
                if (d.signature.equals(sig) && fits(d, sendDeps, drafts) && fits(d.partner, recvDeps, drafts)) {
                    add(d, sendDeps, first);
                    add(d.partner, recvDeps, recv);
                    return;
                }
            }
            Draft s = new Draft(sig, Kind.SEND, first);
            Draft r = new Draft(sig, Kind.RECV, recv);
            s.delta = delta;
            r.delta = negate(delta);
            s.partner = r;
            s.index = drafts.size();
            drafts.add(s);
            r.index = drafts.size();
            drafts.add(r);
            open.add(s);
            add(s, sendDeps, first);
            add(r, recvDeps, recv);
            return;
        }
        Map<Integer, TreeSet<Integer>> rankDeps = new TreeMap<>();
        for (TNode n : unit.nodes) {
            rankDeps.put(n.rank, depSteps(n, ids));
        }
        String sig = first.kind == Kind.COLLECTIVE
                ? "collective " + first.op + " " + first.size + " " + unit.dims + " " + first.name
                : first.kind + " " + first.durationPs + " " + first.name;
        for (Draft d : open) {
            if (d.signature.equals(sig) && fits(d, rankDeps, drafts)) {
                for (TNode n : unit.nodes) {
                    add(d, Map.of(n.rank, rankDeps.get(n.rank)), n);
                }
                return;
            }
        }
        Draft d = new Draft(sig, first.kind, first);
        d.dims = unit.dims;
        d.index = drafts.size();
        drafts.add(d);
        open.add(d);
        for (TNode n : unit.nodes) {
            add(d, Map.of(n.rank, rankDeps.get(n.rank)), n);
        }
    }

    /**
     * Whether ranks with these dependencies can join the draft: no rank twice, and with the union of dependencies
     * as the step's {@code after}, every rank (old and new) still waits for exactly its own dependencies (a rank
     * waits for a step in {@code after} exactly when it runs in that step).
     */
    private static boolean fits(Draft d, Map<Integer, TreeSet<Integer>> joining, List<Draft> drafts) {
        TreeSet<Integer> after = new TreeSet<>(d.after);
        for (Map.Entry<Integer, TreeSet<Integer>> e : joining.entrySet()) {
            if (d.ranks.contains(e.getKey())) {
                return false;
            }
            after.addAll(e.getValue());
        }
        for (Map.Entry<Integer, TreeSet<Integer>> e : joining.entrySet()) {
            for (int x : after) {
                if (drafts.get(x).ranks.contains(e.getKey()) != e.getValue().contains(x)) {
                    return false;
                }
            }
        }
        for (int x : after) {
            if (!d.after.contains(x)) {
                for (int r : d.ranks) {
                    if (drafts.get(x).ranks.contains(r)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static void add(Draft d, Map<Integer, TreeSet<Integer>> joining, TNode n) {
        for (Map.Entry<Integer, TreeSet<Integer>> e : joining.entrySet()) {
            d.ranks.add(e.getKey());
            d.after.addAll(e.getValue());
        }
        n.step = d.index;
    }

    private List<Step> steps(List<Draft> drafts) throws ScenarioException {
        List<Step> out = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        Set<String> exprNames = Layout.names();
        int skipped = 0;
        for (Draft d : drafts) {
            String base = d.first.name.replaceAll("[^A-Za-z0-9._-]", "_");
            if (base.isEmpty()) {
                base = d.kind.name().toLowerCase(Locale.ROOT);
            }
            String id = base;
            for (int k = 2; !taken.add(id); k++) {
                id = base + "-" + k;
            }
            names.add(id);
            List<String> after = new ArrayList<>();
            for (int x : d.after) {
                after.add(names.get(x));
            }
            Expr when = null;
            if (d.ranks.size() < layout.size()) {
                when = parse(whenText(d.ranks), exprNames);
            }
            Step.Meta meta = new Step.Meta(id, id, after, when, 0, 0);
            switch (d.kind) {
                case COMPUTE -> out.add(new Step.Compute(meta, d.first.durationPs));
                case DELAY -> out.add(new Step.Delay(meta, d.first.durationPs));
                case COLLECTIVE -> {
                    int members = 1;
                    for (Dim x : d.dims) {
                        members *= layout.degree(x);
                    }
                    if (members < 2) {
                        // A group of one rank has nothing to exchange: the node only orders its rank's work.
                        skipped++;
                        out.add(new Step.Delay(meta, 0));
                        break;
                    }
                    CollectiveOp op = d.first.op;
                    Algorithm alg = options.algorithms().getOrDefault(op, Collectives.defaultAlgorithm(op));
                    // comm_size is the bytes of the rank's input (Chakra's converter sums the input tensors): for
                    // AllGather one rank's part, for the others the nccl-tests size S.
                    boolean perRank = op == CollectiveOp.ALL_GATHER;
                    out.add(new Step.Collective(meta, op, alg, d.dims, d.first.size, perRank, options.channels(), 0));
                }
                case SEND, RECV -> {
                    Map<Dim, Expr> peer = new EnumMap<>(Dim.class);
                    for (Map.Entry<Dim, Integer> e : d.delta.entrySet()) {
                        int v = e.getValue();
                        peer.put(e.getKey(), parse(e.getKey().key() + (v > 0 ? "+" + v : "-" + (-v)), exprNames));
                    }
                    out.add(new Step.Transfer(meta, d.kind == Kind.SEND, peer, d.kind == Kind.SEND ? d.first.size
                            : 0));
                }
            }
        }
        if (skipped > 0) {
            counts.merge("collectives over a process group of one rank run as no-ops (nothing to exchange)", skipped,
                    Integer::sum);
        }
        return out;
    }

    private static Map<Dim, Integer> negate(Map<Dim, Integer> delta) {
        Map<Dim, Integer> out = new EnumMap<>(Dim.class);
        delta.forEach((d, v) -> out.put(d, -v));
        return out;
    }

    /** The rank number as an expression of the coordinates, in the layout's order. */
    private String rankExpression() {
        StringBuilder b = new StringBuilder();
        long stride = 1;
        for (Dim o : layout.order()) {
            if (layout.degree(o) > 1) {
                b.append(b.length() == 0 ? "" : " + ").append(stride == 1 ? "" : stride + "*").append(o.key());
                stride *= layout.degree(o);
            }
        }
        return b.length() == 0 ? "0" : "(" + b + ")";
    }

    /**
     * A condition that holds for exactly {@code ranks}: the coordinates they share ({@code pp == 1}) when no other
     * rank shares them, else runs of consecutive rank numbers as ranges.
     */
    private String whenText(TreeSet<Integer> ranks) {
        List<String> fixed = new ArrayList<>();
        long matching = 1;
        int some = ranks.first();
        for (Dim d : Dim.values()) {
            if (layout.degree(d) < 2) {
                continue;
            }
            boolean shared = true;
            for (int r : ranks) {
                shared &= layout.coord(r, d) == layout.coord(some, d);
            }
            if (shared) {
                fixed.add(d.key() + " == " + layout.coord(some, d));
            } else {
                matching *= layout.degree(d);
            }
        }
        if (!fixed.isEmpty() && matching == ranks.size()) {
            return String.join(" && ", fixed);
        }
        String rank = rankExpression();
        List<String> terms = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int r : ranks) {
            if (prev != null && r == prev + 1) {
                prev = r;
                continue;
            }
            if (start != null) {
                terms.add(range(rank, start, prev));
            }
            start = r;
            prev = r;
        }
        terms.add(range(rank, start, prev));
        return String.join(" || ", terms);
    }

    private static String range(String rank, int a, int b) {
        return a == b ? rank + " == " + a : "(" + rank + " >= " + a + " && " + rank + " <= " + b + ")";
    }

    private static Expr parse(String text, Set<String> names) {
        try {
            return Expr.parse(text, names);
        } catch (Expr.ParseException e) {
            throw new IllegalStateException("a generated expression does not parse: " + text, e);
        }
    }
}
