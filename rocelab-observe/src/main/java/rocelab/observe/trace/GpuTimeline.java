package rocelab.observe.trace;

import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.SequenceInputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import rocelab.observe.output.JsonText;

/**
 * The GPUs' timelines of a run in the Chrome trace event format (timeline.json), which Perfetto UI and
 * chrome://tracing open: one process per server, one thread per GPU, and below each GPU the lanes its overlapping
 * work needs.
 *
 * <p>A GPU's own thread holds its {@linkplain #span spans} (the caller keeps them properly nested: iterations, and
 * inside them the stretches of compute, exposed communication and idle time) and the first lane of its compute steps.
 * Compute steps that overlap (several streams) and communication (collective calls, sends and receives, which overlap
 * compute and each other) are packed into lanes, extra threads named after the GPU, so that no two slices of one
 * thread overlap partially: the trace format draws only properly nested slices. Arrows join a send to its receive.
 */
public final class GpuTimeline {
    /** Lanes per GPU thread id block: GPU thread, then compute and communication lanes. */
    private static final int LANES = 1 << 12;

    private record Gpu(int server, int host, String label) {}

    /** One slice; {@code group} is null for a span (GPU thread, nested by the caller), else its lane group. */
    private static final class Slice {
        final int server;
        final int host;
        final String group;
        final String cat;
        final String name;
        final long startPs;
        final long endPs;
        final Map<String, Object> args;
        final int order;
        long tid;

        Slice(int server, int host, String group, String cat, String name, long startPs, long endPs,
                Map<String, Object> args, int order) {
            this.server = server;
            this.host = host;
            this.group = group;
            this.cat = cat;
            this.name = name;
            this.startPs = startPs;
            this.endPs = endPs;
            this.args = args;
            this.order = order;
        }
    }

    private record Arrow(String name, int from, int to) {}

    private final Map<Integer, Gpu> gpus = new TreeMap<>();
    private final Map<Integer, String> servers = new TreeMap<>();
    private final List<Slice> slices = new ArrayList<>();
    private final List<Arrow> arrows = new ArrayList<>();
    /** The file's bytes in chunks once {@link #render} has made them (the slices are then dropped), else null. */
    private List<byte[]> rendered;
    private boolean empty = true;

    /**
     * Slice arguments in the order given ({@code key, value, key, value, ...}): a map with a fixed order, so the file
     * has the same bytes in every JVM (Map.of iterates in a per-JVM order).
     */
    public static Map<String, Object> args(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** Names a GPU (a host) and its server; a GPU gets a thread once it has a slice. */
    public void gpu(int server, int host, String label) {
        gpus.putIfAbsent(host, new Gpu(server, host, label));
        servers.putIfAbsent(server, "server " + server);
    }

    /** A slice on the GPU's own thread; the caller keeps the GPU's spans properly nested. */
    public void span(int host, String cat, String name, long startPs, long endPs, Map<String, Object> args) {
        add(host, null, cat, name, startPs, endPs, args);
    }

    /** A compute step: on the GPU's own thread unless it overlaps another step there, then on a compute lane. */
    public int compute(int host, String name, long startPs, long endPs, Map<String, Object> args) {
        return add(host, "compute", "compute", name, startPs, endPs, args);
    }

    /** Communication (a collective call's part, a send, a receive) on a communication lane of the GPU. */
    public int comm(int host, String cat, String name, long startPs, long endPs, Map<String, Object> args) {
        return add(host, "comm", cat, name, startPs, endPs, args);
    }

    /** An arrow from one slice (where it starts) to another (where it ends), such as a send to its receive. */
    public void arrow(String name, int fromSlice, int toSlice) {
        arrows.add(new Arrow(name, fromSlice, toSlice));
    }

    public boolean isEmpty() {
        return empty;
    }

    /**
     * Makes the file's bytes now ({@link #writeJson}'s) and drops the slices: a run's trace needs only the run, so a
     * run renders it while the ideal bound is still being made on the second core, and writing the file later only
     * copies the bytes (which take less memory than the slices, their maps and strings). Nothing can be added after.
     */
    public void render() {
        if (rendered != null) {
            return;
        }
        Chunks bytes = new Chunks();
        try {
            Writer w = new BufferedWriter(new OutputStreamWriter(bytes,
                    StandardCharsets.UTF_8), 1 << 16);
            writeJson(w);
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // memory does not fail
        }
        rendered = bytes.chunks;
        slices.clear();
        ((ArrayList<Slice>) slices).trimToSize();
        arrows.clear();
        ((ArrayList<Arrow>) arrows).trimToSize();
    }

    /** Bytes gathered in chunks of a megabyte: never copied to grow, as one array would be. */
    private static final class Chunks extends OutputStream {
        private static final int CHUNK = 1 << 20;
        final List<byte[]> chunks = new ArrayList<>();
        private byte[] last;
        private int used;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (last == null || used == last.length) {
                    last = new byte[CHUNK];
                    used = 0;
                    chunks.add(last);
                }
                int n = Math.min(len, last.length - used);
                System.arraycopy(b, off, last, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public void flush() {
            if (last != null && used < last.length) {
                chunks.set(chunks.size() - 1, Arrays.copyOf(last, used));
                last = chunks.get(chunks.size() - 1);
            }
        }
    }

    /** Writes the file's bytes ({@link #json()} in UTF-8), the rendered ones when {@link #render} made them. */
    public void writeJson(OutputStream out) throws IOException {
        if (rendered != null) {
            for (byte[] b : rendered) {
                out.write(b);
            }
            return;
        }
        Writer w = new BufferedWriter(new OutputStreamWriter(out,
                StandardCharsets.UTF_8), 1 << 16);
        writeJson(w);
        w.flush();
    }

    private int add(int host, String group, String cat, String name, long startPs, long endPs,
            Map<String, Object> args) {
        if (rendered != null) {
            throw new IllegalStateException("the timeline is rendered: nothing can be added");
        }
        empty = false;
        Gpu g = gpus.get(host);
        if (g == null) {
            throw new IllegalStateException("host " + host + " has no GPU entry");
        }
        slices.add(new Slice(g.server(), host, group, cat, name, startPs, Math.max(startPs, endPs),
                args == null ? Map.of() : args, slices.size()));
        return slices.size() - 1;
    }

    /** The trace as a JSON object ({@code traceEvents}, {@code displayTimeUnit}), one event per line. */
    public String json() {
        StringWriter w = new StringWriter(256 + 200 * slices.size());
        try {
            writeJson(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return w.toString();
    }

    /**
     * Writes {@link #json()} into {@code out} event by event: a job's trace has millions of slices, and the file
     * need not be held as one string (nor its lines as a list) besides the slices themselves.
     */
    public void writeJson(Writer out) throws IOException {
        if (rendered != null) {
            // Decoded as one stream: a character's bytes may lie across two chunks.
            List<InputStream> parts = new ArrayList<>();
            for (byte[] b : rendered) {
                parts.add(new ByteArrayInputStream(b));
            }
            new InputStreamReader(new SequenceInputStream(Collections.enumeration(parts)),
                    StandardCharsets.UTF_8).transferTo(out);
            return;
        }
        Map<Long, String> threadNames = assignLanes();
        List<Slice> sorted = new ArrayList<>(slices);
        // By server, thread, start, longest first, then as added (one comparator, not a chain of key extractors:
        // a job's trace sorts millions of slices).
        sorted.sort((a, b) -> {
            int c = Integer.compare(a.server, b.server);
            if (c == 0) {
                c = Long.compare(a.tid, b.tid);
            }
            if (c == 0) {
                c = Long.compare(a.startPs, b.startPs);
            }
            if (c == 0) {
                c = Long.compare(-a.endPs, -b.endPs);
            }
            return c != 0 ? c : Integer.compare(a.order, b.order);
        });
        out.write("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"rocelab\", \"time_unit\": \"us\"},\n");
        out.write("\"traceEvents\": [\n");
        Lines lines = new Lines(out);
        for (var e : servers.entrySet()) {
            lines.add(event("M", "process_name", e.getKey(), 0, null, args("name", e.getValue())));
            lines.add(event("M", "process_sort_index", e.getKey(), 0, null, args("sort_index", e.getKey())));
        }
        for (var e : threadNames.entrySet()) {
            long tid = e.getKey();
            int server = gpus.get((int) (tid / LANES)).server();
            lines.add(event("M", "thread_name", server, tid, null, args("name", e.getValue())));
            lines.add(event("M", "thread_sort_index", server, tid, null, args("sort_index", tid)));
        }
        // Each slice's event as compact(map) would render {ph, cat, name, pid, tid, ts, dur, args}, written
        // directly: a map, a BigDecimal pair and a string per slice were most of the file's cost.
        StringBuilder b = new StringBuilder(256);
        for (Slice s : sorted) {
            b.setLength(0);
            b.append("{\"ph\": \"X\", \"cat\": ");
            JsonText.appendCompact(b, s.cat);
            b.append(", \"name\": ");
            JsonText.appendCompact(b, s.name);
            b.append(", \"pid\": ").append(s.server).append(", \"tid\": ").append(s.tid).append(", \"ts\": ");
            us(b, s.startPs);
            b.append(", \"dur\": ");
            us(b, s.endPs - s.startPs);
            if (!s.args.isEmpty()) {
                b.append(", \"args\": ");
                JsonText.appendCompact(b, s.args);
            }
            b.append('}');
            lines.add(b);
        }
        for (int i = 0; i < arrows.size(); i++) {
            Arrow a = arrows.get(i);
            Slice from = slices.get(a.from());
            Slice to = slices.get(a.to());
            lines.add(flow("s", a.name(), i + 1, from, from.startPs, false));
            // Bound to the receive it ends in ("bp": "e"), at its last picosecond, where the data arrived.
            lines.add(flow("f", a.name(), i + 1, to, Math.max(to.startPs, to.endPs - 1), true));
        }
        lines.end();
        out.write("]}\n");
    }

    /** The event lines, each but the last followed by a comma: the separator is written before every line after the first. */
    private static final class Lines {
        private final Writer out;
        private boolean any;

        Lines(Writer out) {
            this.out = out;
        }

        private char[] chars = new char[256];

        void add(CharSequence line) throws IOException {
            if (any) {
                out.write(",\n");
            }
            if (line instanceof StringBuilder b) {
                // Copied into a reused array: Writer.append would make a string of every line first.
                int n = b.length();
                if (n > chars.length) {
                    chars = new char[Math.max(n, 2 * chars.length)];
                }
                b.getChars(0, n, chars, 0);
                out.write(chars, 0, n);
            } else {
                out.append(line);
            }
            any = true;
        }

        void end() throws IOException {
            if (any) {
                out.write("\n");
            }
        }
    }

    /**
     * Puts every slice on a thread: spans on their GPU's thread; each lane group's slices, in start order, on the
     * first lane whose last slice has ended (compute lane 0 is the GPU's own thread). Returns the thread names.
     */
    private Map<Long, String> assignLanes() {
        Map<Long, String> names = new TreeMap<>();
        // Per GPU and lane group (compute or communication), the end of each lane's last slice: keyed by number, not
        // by a string made per slice (a job's trace has millions of slices).
        Map<Long, LaneEnds> laneEnds = new HashMap<>();
        List<Slice> order = new ArrayList<>(slices);
        // By start, longest first, then as added (one comparator, as in writeJson).
        order.sort((a, b) -> {
            int c = Long.compare(a.startPs, b.startPs);
            if (c == 0) {
                c = Long.compare(-a.endPs, -b.endPs);
            }
            return c != 0 ? c : Integer.compare(a.order, b.order);
        });
        for (Slice s : order) {
            Gpu g = gpus.get(s.host);
            long base = (long) s.host * LANES;
            names.putIfAbsent(base, g.label());
            if (s.group == null) {
                s.tid = base;
                continue;
            }
            boolean compute = s.group.equals("compute");
            LaneEnds ends = laneEnds.computeIfAbsent((long) s.host << 1 | (compute ? 0 : 1), k -> new LaneEnds());
            int lane = ends.firstFreeAt(s.startPs);
            ends.set(lane, s.endPs);
            // Compute lanes first (lane 0 is the GPU's thread), then communication lanes, all under the GPU.
            int offset = compute ? lane : LANES / 2 + lane + 1;
            if (offset >= LANES) {
                throw new IllegalStateException("more than " + LANES / 2 + " overlapping slices on host " + s.host);
            }
            s.tid = base + offset;
            if (offset > 0) {
                names.putIfAbsent(s.tid, g.label() + (compute ? " compute " + (lane + 1) : " comm " + (lane + 1)));
            }
        }
        return names;
    }

    /** The end of the last slice on each lane of one lane group, lane 0 first. */
    private static final class LaneEnds {
        private long[] end = new long[4];
        private int lanes;

        /** The first lane whose last slice has ended by {@code startPs}, or a new lane when none has. */
        int firstFreeAt(long startPs) {
            int lane = 0;
            while (lane < lanes && end[lane] > startPs) {
                lane++;
            }
            return lane;
        }

        void set(int lane, long endPs) {
            if (lane == lanes) {
                if (lanes == end.length) {
                    end = Arrays.copyOf(end, 2 * lanes);
                }
                lanes++;
            }
            end[lane] = endPs;
        }
    }

    private static String flow(String ph, String name, int id, Slice s, long tsPs, boolean bindEnclosing) {
        Map<String, Object> ev = new LinkedHashMap<>();
        ev.put("ph", ph);
        ev.put("cat", "p2p");
        ev.put("name", name);
        ev.put("id", id);
        ev.put("pid", s.server);
        ev.put("tid", s.tid);
        ev.put("ts", us(tsPs));
        if (bindEnclosing) {
            ev.put("bp", "e");
        }
        return compact(ev);
    }

    private static String event(String ph, String name, int pid, long tid, Object ts, Map<String, Object> args) {
        Map<String, Object> ev = new LinkedHashMap<>();
        ev.put("ph", ph);
        ev.put("name", name);
        ev.put("pid", pid);
        ev.put("tid", tid);
        if (ts != null) {
            ev.put("ts", ts);
        }
        ev.put("args", args);
        return compact(ev);
    }

    /** Picoseconds as microseconds, exactly (the format's unit). */
    static BigDecimal us(long ps) {
        return BigDecimal.valueOf(ps, 6);
    }

    /** Appends {@code us(ps).toPlainString()}: the integer part, a point and always six decimals. */
    static void us(StringBuilder b, long ps) {
        if (ps == Long.MIN_VALUE) {
            b.append(us(ps).toPlainString());
            return;
        }
        if (ps < 0) {
            b.append('-');
            ps = -ps;
        }
        long whole = ps / 1_000_000;
        int frac = (int) (ps - whole * 1_000_000);
        b.append(whole).append('.');
        for (int d = 100_000; d > 0; d /= 10) {
            b.append((char) ('0' + frac / d % 10));
        }
    }

    private static String compact(Map<String, Object> ev) {
        return JsonText.compact(ev);
    }
}
