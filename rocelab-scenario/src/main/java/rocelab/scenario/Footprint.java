package rocelab.scenario;

import java.util.Locale;
import rocelab.fabric.topology.TopologySpec;

/**
 * What a run of a scenario will hold in memory, counted from the scenario's description before anything is built
 * or expanded: hosts, switches and links of the topology (arithmetic on its spec), the flows of its traffic and the
 * tasks of its jobs. The byte figures per item were measured on assembled packet-level runs (see BENCHMARKS.md,
 * "Sizing a run before it starts"); they are estimates, meant to refuse what cannot fit, not to promise what can.
 */
public record Footprint(long hosts, long switches, long links, long flows, long tasks, boolean streamed) {
    /** The JVM, the classes and the scenario itself. */
    static final long BASE_BYTES = 96L << 20;
    /** One end of a link (an RNIC or a switch port with its class FIFOs and buffer accounting) and its half of the link. */
    static final long PORT_BYTES = 2_560;
    /** One forwarding-table entry: a reference per (switch, destination host). */
    static final long ROUTE_BYTES = 4;
    /** One flow: its graph entry, queue pair, driver state and record, and the lint's copy of its transfer. */
    static final long FLOW_BYTES = 1_024;
    /**
     * One flow of a flow-level run: no queue pair, but the driver's state twice (the run and the ideal network's
     * run) and its record; measured on the flow-level scale benchmarks (BENCHMARKS.md), rounded up.
     */
    static final long FLOW_LEVEL_FLOW_BYTES = 512;
    /** One timed or join task of a job (and the per-rank state that unrolls it). */
    static final long TASK_BYTES = 160;
    /**
     * A streamed flow-level run ({@link StreamedRun}): whatever its flows, it holds the windows of its task graph, its
     * driver and its ideal bound ({@code StreamedRun.WINDOW} tasks each) and the connections of its rings; measured on
     * the 32,768-GPU AllReduce (BENCHMARKS.md), rounded up.
     */
    static final long STREAMED_WINDOW_BYTES = 1L << 30;
    /** Per host of a streamed run: its rings' connections and schedules. */
    static final long STREAMED_HOST_BYTES = 4_096;
    /** Tasks and flows are numbered with ints (a streamed run's ids too: they grow, though its window does not). */
    static final long MAX_TASKS = Integer.MAX_VALUE - 8;

    public static Footprint of(TopologySpec topology) {
        return new Footprint(topology.hostCount(), topology.switchCount(), topology.linkCount(), 0, 0, false);
    }

    /** With {@code n} more flows (each also a task). */
    public Footprint plusFlows(long n) {
        return new Footprint(hosts, switches, links, addSat(flows, n), addSat(tasks, n), streamed);
    }

    /** With {@code n} more tasks that are not flows. */
    public Footprint plusTasks(long n) {
        return new Footprint(hosts, switches, links, flows, addSat(tasks, n), streamed);
    }

    /** The same counts, run streamed ({@code streamed}) or with the whole task graph in memory. */
    public Footprint streamed(boolean streamedRun) {
        return new Footprint(hosts, switches, links, flows, tasks, streamedRun);
    }

    /** Estimated heap of a packet-level run, in bytes (saturating). */
    public long bytes() {
        return bytes(false);
    }

    /** Estimated heap of the run at packet level or ({@code flowLevel}) at flow level, in bytes (saturating). */
    public long bytes(boolean flowLevel) {
        long b = BASE_BYTES;
        b = addSat(b, mulSat(2 * links, PORT_BYTES));
        b = addSat(b, mulSat(mulSat(switches, hosts), ROUTE_BYTES));
        if (streamed && flowLevel) {
            // Only a window of the tasks is ever held.
            b = addSat(b, STREAMED_WINDOW_BYTES);
            b = addSat(b, mulSat(hosts, STREAMED_HOST_BYTES));
            return b;
        }
        b = addSat(b, mulSat(flows, flowLevel ? FLOW_LEVEL_FLOW_BYTES : FLOW_BYTES));
        b = addSat(b, mulSat(tasks - flows, TASK_BYTES));
        return b;
    }

    /** Whether the tasks exceed what a run can number at all, whatever the heap. */
    public boolean tooManyTasks() {
        return tasks > MAX_TASKS;
    }

    /** {@code 4,096 hosts, 16 switches, 4,224 links, 8,190 flows, 10,000 tasks}: the counts behind the estimate. */
    public String counts() {
        return String.format(Locale.ROOT, "%,d host%s, %,d switch%s, %,d link%s%s%s", hosts, hosts == 1 ? "" : "s",
                switches, switches == 1 ? "" : "es", links, links == 1 ? "" : "s",
                flows > 0 ? String.format(Locale.ROOT, ", %s flows", count(flows)) : "",
                tasks > flows ? String.format(Locale.ROOT, ", %s other tasks", count(tasks - flows)) : "");
    }

    /** Bytes as {@code 1.5 GiB}. */
    public static String gib(long bytes) {
        return bytes == Long.MAX_VALUE ? "more than 8 EiB" : String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    private static String count(long n) {
        return n == Long.MAX_VALUE ? "more than 9.2e18" : String.format(Locale.ROOT, "%,d", n);
    }

    public static long addSat(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    public static long mulSat(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }
}
