package rocelab.observe.output;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.engine.Time;
import rocelab.fabric.network.IdealSlowLinks;
import rocelab.fabric.network.RetryFailure;
import rocelab.fabric.nic.NotificationSources;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.counter.CounterUnits;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowAggregate;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.HeldAlone;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.flow.Oversubscription;
import rocelab.observe.flow.Percentiles;
import rocelab.observe.flow.SizeClasses;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/** The stable key tree of summary.json. Keys are never renamed; new keys may be added. */
public final class Summary {
    /** Victims listed in summary.json (the count says how many there are in all). */
    static final int VICTIMS_LISTED = 20;

    /** Keys whose values depend on the machine, not on the scenario and seed. */
    public static final String[] WALL_CLOCK_KEYS = {"wall_seconds", "events_per_second"};

    /**
     * What the workload's transfers between two GPUs of one server are (said once, with their count and bytes, in
     * summary.json's {@code nvlink} and the printed summary, when there are any).
     */
    public static final String NVLINK_NOTE = "between GPUs of one server go over NVLink, not the network: they are not"
            + " flows (not in flows.csv, the FCT or the goodput) and cross no RNIC or switch";

    private Summary() {}

    public static Map<String, Object> of(RunResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", r.scenario());
        m.put("seed", r.seed());
        m.put("mode", r.mode());
        m.put("model", r.model());
        if (!r.packetLevel()) {
            m.put("not_modelled", r.notModelled() != null ? r.notModelled() : RunResult.NOT_MODELLED);
        }
        m.put("simulated_seconds", Numbers.round(Time.toSeconds(r.simulatedPs()), 12));
        m.put("wall_seconds", Numbers.round(r.wallSeconds(), 3));
        m.put("events", r.events());
        m.put("events_per_second", Math.round(r.eventsPerSecond()));
        if (r.packetLevel()) {
            m.put("data_packets", r.totals().dataPacketsSent());
        }
        m.put("finished", r.finished());
        m.put("stop_reason", r.stopReason());
        if (r.threadsNote() != null) {
            m.put("threads_note", r.threadsNote());
        }
        if (!r.deadlockCycle().isEmpty()) {
            // On InfiniBand the queues of the cycle wait for credits (a credit loop), not behind PFC pauses.
            String kind = "infiniband".equals(r.mode()) ? "credit" : "pfc";
            m.put(kind + "_deadlock_cycle", r.deadlockCycle());
            m.put(kind + "_deadlock_since_us", Numbers.micros(r.deadlockSincePs()));
        }
        m.put("flows", flows(r));
        List<Oversubscription.Tier> tiers = Oversubscription.find(r.network(), r.packetLevel());
        if (!tiers.isEmpty()) {
            m.put("oversubscription", oversubscription(r, tiers));
        }
        if (r.packetLevel() && !r.network().retryFailures().isEmpty()) {
            // Each QP that ran out of retries while links were down, with what they did to it.
            List<Object> failures = new ArrayList<>();
            for (RetryFailure f : r.network().retryFailures()) {
                failures.add(RetryFailureText.json(f, SummaryText.failedFlowsOf(r, f.queuePair()),
                        r.network().topology()));
            }
            m.put("retry_failures", failures);
        }
        if (r.nvlinkTransfers() > 0) {
            Map<String, Object> nvlink = new LinkedHashMap<>();
            nvlink.put("transfers", r.nvlinkTransfers());
            nvlink.put("bytes", r.nvlinkBytes());
            nvlink.put("note", "these transfers " + NVLINK_NOTE);
            m.put("nvlink", nvlink);
        }
        if (!r.jobs().isEmpty()) {
            List<Object> list = new ArrayList<>();
            for (var j : r.jobs()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("job", j.job());
                row.put("ranks", j.ranks());
                row.put("iterations", j.iterations());
                row.put("warmup", j.warmup());
                row.put("completed", j.completed());
                row.put("jct_us", j.completed() ? Numbers.micros(j.jctPs()) : null);
                row.put("ideal_jct_us", Numbers.micros(j.idealJctPs()));
                row.put("network_penalty_us", j.completed() ? Numbers.micros(j.networkPenaltyPs()) : null);
                row.put("network_penalty_percent", j.completed() ? Numbers.round(j.networkPenaltyPercent(), 2) : null);
                row.put("per_iteration_us", nan(j.perIterationUs()));
                row.put("ideal_per_iteration_us", nan(j.idealPerIterationUs()));
                row.put("iteration_us", nan(j.iterationUs()));
                row.put("ideal_iteration_us", nan(j.idealIterationUs()));
                row.put("compute_us_per_iteration", nan(j.computeUs()));
                row.put("exposed_comm_us_per_iteration", nan(j.exposedCommUs()));
                row.put("late_entry_us_per_iteration", nan(j.lateEntryUs()));
                row.put("idle_us_per_iteration", nan(j.idleUs()));
                row.put("network_wait_us_per_iteration", nan(j.networkWaitUs()));
                row.put("max_rank_network_wait_us_per_iteration", nan(j.maxNetworkWaitUs()));
                // After the warm-up, as every figure of the job but collectives.csv counts its calls.
                row.put("collective_calls", r.collectives().stream()
                        .filter(c -> c.job().equals(j.job()) && !c.warmUp(r.jobs())).count());
                if (j.beside().items() > 0) {
                    Map<String, Object> beside = new LinkedHashMap<>();
                    beside.put("items", j.beside().items());
                    beside.put("longest", j.beside().longest());
                    beside.put("longest_us", Numbers.micros(j.beside().overlapPs()));
                    row.put("beside", beside);
                }
                if (!j.slowestTransfers().isEmpty()) {
                    // The summary's "slowest transfer" lines, for tools: each by its flow in flows.csv.
                    List<Map<String, Object>> slow = new ArrayList<>();
                    for (var t : j.slowestTransfers()) {
                        Map<String, Object> x = new LinkedHashMap<>();
                        x.put("name", t.name());
                        x.put("iteration", t.iteration());
                        x.put("bytes", t.bytes());
                        x.put("flow", t.flow());
                        x.put("fct_us", Numbers.micros(t.fctPs()));
                        x.put("ideal_fct_us", Numbers.micros(t.idealFctPs()));
                        slow.add(x);
                    }
                    row.put("slowest_transfers", slow);
                }
                if (!j.notes().isEmpty()) {
                    // What an imported workload has that the run does not model as such (said once, also on stderr).
                    row.put("notes", j.notes());
                }
                list.add(row);
            }
            m.put("jobs", list);
        }
        if (!r.services().isEmpty() || !r.requests().isEmpty()) {
            m.put("inference", InferenceOutput.summary(r));
        }
        if (SummaryText.reportsIdeal(r)) {
            // The fabric's slow links the ideal network has too: what their rate costs is in no network wait.
            Map<String, Object> slow = IdealSlowLinksText.json(IdealSlowLinks.of(r.network().topology()));
            if (slow != null) {
                m.put("ideal_slow_links", slow);
            }
        }
        if (r.collectives().stream().anyMatch(c -> c.job().isEmpty())) {
            List<Object> list = new ArrayList<>();
            for (var c : r.collectives()) {
                if (!c.job().isEmpty()) {
                    continue;
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", c.name());
                row.put("algorithm", c.algorithm());
                row.put("ranks", c.ranks());
                row.put("size_bytes", c.sizeBytes());
                row.put("runs", c.runs());
                row.put("completed", c.completed());
                row.put("start_us", Numbers.micros(c.startPs()));
                row.put("time_us", c.completed() ? Numbers.micros(c.timePs()) : null);
                row.put("algbw_gbytes_per_s", c.completed() ? Numbers.round(c.algbwGBps(), 3) : null);
                row.put("busbw_gbytes_per_s", c.completed() ? Numbers.round(c.busbwGBps(), 3) : null);
                row.put("ideal_time_us", c.idealTimePs() >= 0 ? Numbers.micros(c.idealTimePs()) : null);
                list.add(row);
            }
            m.put("collectives", list);
        }
        if (!r.packetLevel()) {
            return m;
        }
        Map<String, Object> counters = counters(r.totals());
        // What the two counters count differs with the control (a DCQCN cut against an HPCC window update, a paced
        // CNP frame against a flag on an ACK or a BECN): said beside them, from what counted them.
        counters.put("rate_cuts_unit", CounterUnits.rateCuts(r.network()));
        counters.put("cnp_sent_unit", CounterUnits.cnpSent(r.network(), "infiniband".equals(r.mode())));
        m.put("counters", counters);
        m.put("window_limited_qps", CounterUnits.windowLimited(r.network()));
        m.put("max_queue_bytes", r.totals().maxQueueBytes());
        if (r.pfcLog() != null) {
            var topo = r.network().topology();
            List<Object> tree = new ArrayList<>();
            for (var e : r.pfcLog().propagation(r.network().simulator().nowPs())) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("first_xoff_us", Numbers.micros(e.firstXoffPs()));
                row.put("device", topo.nodeName(e.device()));
                row.put("port", e.port());
                row.put("paused", topo.nodeName(e.peer()));
                row.put("priority", e.priority());
                row.put("hop", e.hop());
                row.put("root", r.pfcLog().rootName(e.rootKind(), e.rootNode(), e.rootPort()));
                row.put("paused_us", Numbers.micros(e.pausedPs()));
                tree.add(row);
            }
            m.put("pfc_propagation", tree);
            List<Map<String, Object>> cycles = new ArrayList<>();
            PfcLog log = r.pfcLog();
            for (int c = 0; c < log.cycleCount(); c++) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("cycle", log.rootName(PfcLog.ROOT_PAUSE_CYCLE, c, -1));
                row.put("queues", log.cycleQueues(c));
                long[] spells = log.cycleSpells(c);
                List<Map<String, Object>> held = new ArrayList<>();
                long total = 0;
                for (int k = 0; k + 1 < spells.length; k += 2) {
                    Map<String, Object> spell = new LinkedHashMap<>();
                    spell.put("from_us", Numbers.micros(spells[k]));
                    spell.put("to_us", spells[k + 1] < 0 ? null : Numbers.micros(spells[k + 1]));
                    held.add(spell);
                    total += (spells[k + 1] < 0 ? r.simulatedPs() : spells[k + 1]) - spells[k];
                }
                row.put("held", held);
                row.put("held_us", Numbers.micros(total));
                cycles.add(row);
            }
            m.put("pfc_cycles", cycles);
            var found = r.pfcLog().victims(r.flows(), r.simulatedPs());
            m.put("pfc_victim_count", found.size());
            m.put("pfc_victims", victims(found, topo, PfcVictims.wording(r.pfcLog()),
                    "paused_wait_us"));
        }
        if (r.creditLog() != null) {
            var found = r.creditLog().victims(r.flows(), r.simulatedPs());
            m.put("ib_victim_count", found.size());
            m.put("ib_victims", victims(found, r.network().topology(), r.creditLog().wording(), "credit_wait_us"));
        }
        if (r.ecmpLog() != null) {
            var found = r.ecmpLog().collisions(r.flows());
            m.put("ecmp_collision_count", found.size());
            m.put("ecmp_collisions", ecmpCollisions(found, r.network().topology(), r.series()));
        }
        if (r.packetLevel() && r.series() != null) {
            List<Map<String, Object>> held = new ArrayList<>();
            var topo = r.network().topology();
            List<HeldByRate> found = HeldByRate.find(r.flows(), r.simulatedPs(), r.network(), r.series(), r.pfcLog());
            for (HeldByRate h : found) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("receiver", topo.nodeName(h.receiver()));
                row.put("link", topo.nodeName(h.switchIndex() + topo.hostCount()) + " port " + h.port());
                row.put("flows", h.flows());
                row.put("rate_held_share_min", Numbers.round(h.minShare(), 3));
                row.put("rate_held_share_max", Numbers.round(h.maxShare(), 3));
                row.put("link_utilisation", Numbers.round(h.utilisation(), 3));
                row.put("path_utilisation_max", Numbers.round(h.pathUtilisation(), 3));
                row.put("from_us", Numbers.micros(h.fromPs()));
                row.put("to_us", Numbers.micros(h.toPs()));
                row.put("paused_wait_us", Numbers.micros(h.pausedWaitPs()));
                held.add(row);
            }
            m.put("held_by_rate", held);
            List<Map<String, Object>> alone = new ArrayList<>();
            for (HeldAlone h : HeldAlone.find(r.flows(), r.simulatedPs(), r.network(), r.series(), found)) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("flow", h.flow());
                row.put("sender", topo.nodeName(h.sender()));
                row.put("receiver", topo.nodeName(h.receiver()));
                row.put("link", topo.nodeName(h.switchIndex() + topo.hostCount()) + " port " + h.port());
                row.put("from_us", Numbers.micros(h.fromPs()));
                row.put("to_us", Numbers.micros(h.toPs()));
                row.put("rate_min_gbps", Numbers.round(h.minRateBps() / 1e9, 3));
                row.put("rate_max_gbps", Numbers.round(h.maxRateBps() / 1e9, 3));
                row.put("link_gbps", Numbers.round(h.linkBps() / 1e9, 3));
                row.put("notifications", h.notifications());
                row.put("link_utilisation", Numbers.round(h.utilisation(), 3));
                row.put("path_utilisation_max", Numbers.round(h.pathUtilisation(), 3));
                row.put("rate_held_share", Numbers.round(h.heldShare(), 3));
                alone.add(row);
            }
            m.put("held_alone", alone);
        }
        m.put("max_queue_port", r.totals().maxQueuePort());
        var lanes = VirtualLanes.of(r.network());
        if (lanes != null) {
            m.put("infiniband", lanes.summary());
        }
        return m;
    }

    /**
     * The first {@link #VICTIMS_LISTED} victims with their evidence: the flow, its waits ({@code waitKey}: behind
     * pauses, or for credits) and those rooted off its way, the off-way root, and its waits at each hop.
     */
    private static List<Object> victims(List<Victims.Victim> found,
            Topology topo, Victims.Wording words, String waitKey) {
        List<Object> victims = new ArrayList<>();
        for (var v : found.subList(0, Math.min(VICTIMS_LISTED, found.size()))) {
            var f = v.flow();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("flow_id", f.id());
            row.put("src", f.src());
            row.put("dst", f.dst());
            row.put("slowdown", f.completed() ? Numbers.round(f.slowdown(), 3) : null);
            long lost = Victims.lostPs(f);
            row.put("lost_us", lost == Victims.UNKNOWN ? null : Numbers.micros(lost));
            row.put(waitKey, Numbers.micros(v.waitPs()));
            row.put("victim_wait_us", Numbers.micros(v.offPathWaitPs()));
            // The root it waited behind most, with its part of victim_wait_us; the others apart, as the printed
            // summary names them, so that no root is given another's waits.
            row.put("root", v.root() == null ? null : v.root().others() ? Victims.OTHERS
                    : words.rootName(v.root()));
            row.put("root_hops", v.root() == null || v.root().others() ? null : v.root().hops());
            List<FlowWaits.Root> roots = v.offPathRoots();
            row.put("root_wait_us", roots.isEmpty() ? null : Numbers.micros(roots.get(0).waitPs()));
            List<Object> others = new ArrayList<>();
            for (var x : roots.subList(Math.min(1, roots.size()), roots.size())) {
                Map<String, Object> other = new LinkedHashMap<>();
                other.put("root", x.others() ? Victims.OTHERS : words.rootName(x));
                other.put("root_hops", x.others() ? null : x.hops());
                other.put("root_wait_us", Numbers.micros(x.waitPs()));
                others.add(other);
            }
            row.put("other_roots", others);
            List<Object> hops = new ArrayList<>();
            for (var h : v.hops()) {
                Map<String, Object> hop = new LinkedHashMap<>();
                hop.put("device", h.others() ? Victims.OTHER_HOPS : topo.nodeName(h.node()));
                hop.put("port", h.others() ? null : h.port());
                hop.put("packets", h.acks() ? "last_ack" : "data");
                hop.put(waitKey, Numbers.micros(h.waitPs()));
                hop.put("victim_wait_us", Numbers.micros(h.offPathWaitPs()));
                hops.add(hop);
            }
            row.put("waited_at", hops);
            // What else held it up: its own rate, and the marks behind the notifications that cut it (each
            // notification carries the port that marked the packet it answers).
            row.put("rate_held_us", f.rateHeldPs() < 0 ? null : Numbers.micros(f.rateHeldPs()));
            long[] sources = v.notificationSources();
            List<Object> marks = new ArrayList<>();
            for (int i = 0; sources != null && i < sources.length; i += NotificationSources.FIELDS) {
                Map<String, Object> mark = new LinkedHashMap<>();
                // Null device: other ports than a QP keeps apart, or (not_apart) a QP shared with other messages.
                mark.put("device", sources[i] < 0 ? null : topo.nodeName((int) sources[i]));
                mark.put("not_apart", sources[i] == NotificationSources.NOT_APART);
                mark.put("port", sources[i] < 0 ? null : (int) sources[i + 1]);
                mark.put("notifications", sources[i + 2]);
                mark.put("held_by_pause", sources[i + 3]);
                mark.put("waited_there", sources[i] >= 0
                        && Victims.waitedAt(v.hops(), (int) sources[i], (int) sources[i + 1]));
                marks.add(mark);
            }
            row.put("notifications_by_mark", sources == null ? null : marks);
            victims.add(row);
        }
        return victims;
    }

    /** Collision ports listed in summary.json (the count says how many there are in all), and flows per port. */
    static final int COLLISIONS_LISTED = 20;
    static final int COLLIDING_FLOWS_LISTED = 20;

    /** The ports where flows waited behind ECMP collisions, most waited first, each with its evidence. */
    private static List<Object> ecmpCollisions(List<EcmpLog.Collision> found,
            Topology topo, TimeSeriesSampler series) {
        List<Object> out = new ArrayList<>();
        for (var c : found.subList(0, Math.min(COLLISIONS_LISTED, found.size()))) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("switch", topo.nodeName(c.node()));
            row.put("port", c.port());
            row.put("towards", topo.nodeName(topo.peer(c.node(), c.port()).node()));
            List<Object> idle = new ArrayList<>();
            for (var i : c.idlePorts()) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("port", i.port());
                p.put("towards", topo.nodeName(topo.peer(c.node(), i.port()).node()));
                p.put("collisions", i.packets());
                idle.add(p);
            }
            row.put("idle_ports", idle);
            if (c.idleLeftOut() > 0) {
                // Collisions that found an idle port not kept (the log keeps five a port): they are not in idle_ports.
                row.put("idle_left_out_collisions", c.idleLeftOut());
            }
            row.put("collisions", c.packets());
            row.put("ecmp_wait_us", Numbers.micros(c.waitPs()));
            row.put("flow_count", c.flows().size());
            int to = EcmpLog.bottleneckReceiver(c, topo, series);
            // One receiver for every flow that waited here, its port their bottleneck (measured): spreading would only
            // move the queue to its port.
            row.put("receiver", to < 0 ? null : topo.nodeName(to));
            List<Object> flows = new ArrayList<>();
            for (var f : c.flows().subList(0, Math.min(COLLIDING_FLOWS_LISTED, c.flows().size()))) {
                Map<String, Object> x = new LinkedHashMap<>();
                var r = f.flow();
                x.put("flow_id", r.id());
                x.put("src", r.src());
                x.put("dst", r.dst());
                x.put("ecmp_wait_us", Numbers.micros(f.waitPs()));
                x.put("packets", f.packets());
                flows.add(x);
            }
            row.put("flows", flows);
            List<Object> behind = new ArrayList<>();
            for (var p : c.pairs()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("flow_id", p.flow());
                x.put("behind_flow_id", p.ahead());
                x.put("collisions", p.packets());
                behind.add(x);
            }
            row.put("behind", behind);
            if (c.starvedPackets() > 0) {
                // Drops at the switch's other ports for lack of the buffer this queue held (the most of it, full).
                List<Object> starved = new ArrayList<>();
                for (var x : c.starved()) {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("port", x.port());
                    d.put("towards", topo.nodeName(topo.peer(c.node(), x.port()).node()));
                    d.put("flow_id", x.flow());
                    d.put("packets", x.packets());
                    starved.add(d);
                }
                row.put("buffer_full_drops_elsewhere", starved);
                row.put("buffer_full_drops_elsewhere_packets", c.starvedPackets());
            }
            out.add(row);
        }
        return out;
    }

    /** What summary.json says of a run whose flows are aggregated (flows_aggregated.csv instead of flows.csv). */
    public static final String AGGREGATED_NOTE = "a streamed run: no row per flow; flows_aggregated.csv has every flow"
            + " counted, one row for all of them and one per message size, with FCT and slowdown quantiles from log"
            + " histograms (at most 0.8 % low); observe: {flows: per-flow} asks for flows.csv";

    private static Map<String, Object> aggregatedFlows(RunResult r) {
        FlowAggregate a = r.flowsAggregated().all();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("output", "aggregated");
        m.put("note", AGGREGATED_NOTE);
        m.put("count", a.count());
        m.put("completed", a.completedCount());
        m.put("failed", a.failedCount());
        m.put("unfinished", a.unfinishedCount());
        m.put("bytes_completed", a.bytesCompleted());
        boolean any = a.completedCount() > 0;
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("min", micros(a.fctMinPs()));
        f.put("mean", any ? Numbers.round(a.fctMeanPs() / Time.PS_PER_US, 6) : null);
        f.put("p50", micros(a.fctQuantilePs(0.50)));
        f.put("p90", micros(a.fctQuantilePs(0.90)));
        f.put("p99", micros(a.fctQuantilePs(0.99)));
        f.put("max", micros(a.fctMaxPs()));
        m.put("fct_us", f);
        Map<String, Object> sd = new LinkedHashMap<>();
        sd.put("p50", any ? Numbers.round(a.slowdownQuantile(0.50), 6) : null);
        sd.put("p99", any ? Numbers.round(a.slowdownQuantile(0.99), 6) : null);
        sd.put("max", any ? Numbers.round(a.slowdownMax(), 6) : null);
        m.put("slowdown", sd);
        // The bytes of flows still under way are not kept by the aggregate: known only when none is left.
        long delivered = a.completedCount() == a.count() ? a.bytesCompleted() : -1;
        m.put("bytes_delivered", delivered < 0 ? null : delivered);
        goodputs(m, r, a.completedCount(), a.bytesCompleted(), delivered);
        return m;
    }

    /**
     * The last run's flow statistics, for the run they were made of: summary.json and the report (on another thread)
     * both ask, and a flow-level run's millions of flows take seconds to sort. Weak: a sweep's JVM runs many.
     */
    private static WeakReference<RunResult> lastRun = new WeakReference<>(null);
    private static Map<String, Object> lastFlows;

    private static Map<String, Object> flows(RunResult r) {
        if (r.flowsAreAggregated()) {
            return aggregatedFlows(r);
        }
        synchronized (Summary.class) {
            if (lastRun.get() != r) {
                lastFlows = perFlow(r);
                lastRun = new WeakReference<>(r);
            }
            return copy(lastFlows);
        }
    }

    /** A copy of a tree of maps (its leaves are immutable), so no caller sees another's changes. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> m) {
        Map<String, Object> c = new LinkedHashMap<>();
        for (var e : m.entrySet()) {
            c.put(e.getKey(), e.getValue() instanceof Map<?, ?> sub ? copy((Map<String, Object>) sub) : e.getValue());
        }
        return c;
    }

    private static Map<String, Object> perFlow(RunResult r) {
        int n = r.flows().size();
        // One pass over the records (a flow-level run's are made on each get), in flow order as the arrays were.
        long completed = 0;
        long failed = 0;
        long notPosted = 0;
        long bytes = 0;
        long delivered = 0;
        long[] fct = new long[n];
        long[] slow = new long[n];
        for (FlowRecord f : r.flows()) {
            if (f.failed()) {
                failed++;
            }
            if (f.notPosted()) {
                notPosted++;
            }
            delivered = delivered < 0 || f.deliveredBytes() < 0 ? -1 : delivered + f.deliveredBytes();
            if (f.completed()) {
                fct[(int) completed] = f.fctPs();
                slow[(int) completed] = Math.round(f.slowdown() * 1_000_000);
                bytes += f.sizeBytes();
                completed++;
            }
        }
        Percentiles p = new Percentiles(Arrays.copyOf(fct, (int) completed));
        Percentiles s = new Percentiles(Arrays.copyOf(slow, (int) completed));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", n);
        m.put("completed", completed);
        m.put("failed", failed);
        // Only when a failure kept flows from being posted, so that a run without failures keeps its keys.
        if (notPosted > 0) {
            m.put("not_posted", notPosted);
        }
        m.put("unfinished", n - completed - failed - notPosted);
        m.put("bytes_completed", bytes);
        m.put("bytes_delivered", delivered < 0 ? null : delivered);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("min", micros(p.min()));
        f.put("mean", p.count() == 0 ? null : Numbers.round(p.mean() / Time.PS_PER_US, 6));
        f.put("p50", micros(p.percentile(50)));
        f.put("p90", micros(p.percentile(90)));
        f.put("p99", micros(p.percentile(99)));
        f.put("max", micros(p.max()));
        m.put("fct_us", f);
        Map<String, Object> sd = new LinkedHashMap<>();
        sd.put("p50", s.count() == 0 ? null : Numbers.round(s.percentile(50) / 1e6, 6));
        sd.put("p99", s.count() == 0 ? null : Numbers.round(s.percentile(99) / 1e6, 6));
        sd.put("max", s.count() == 0 ? null : Numbers.round(s.max() / 1e6, 6));
        m.put("slowdown", sd);
        List<SizeClasses.SizeClass> classes = SizeClasses.of(r.flows());
        if (!classes.isEmpty()) {
            Map<String, Object> bySize = new LinkedHashMap<>();
            for (SizeClasses.SizeClass c : classes) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("flows", c.flows());
                x.put("p50", c.flows() == 0 ? null : Numbers.round(c.p50(), 6));
                x.put("p95", c.flows() == 0 ? null : Numbers.round(c.p95(), 6));
                x.put("p99", c.flows() == 0 ? null : Numbers.round(c.p99(), 6));
                x.put("not_completed", c.notCompleted());
                bySize.put(c.name(), x);
            }
            m.put("slowdown_by_size", bySize);
        }
        goodputs(m, r, completed, bytes, delivered);
        return m;
    }

    /**
     * {@code aggregate_goodput_gbps}: the completed flows' payload bits over the time from the first post to the run's
     * end, null when no flow completed (a run stopped during its flows moved bytes: 0 would be a false figure); and
     * {@code delivered_goodput_gbps}: every flow's payload bits its receiver had in order by the end
     * ({@code bytes_delivered}, -1 when not known: null) over the same time.
     */
    private static void goodputs(Map<String, Object> m, RunResult r, long completed, long completedBytes,
            long deliveredBytes) {
        double seconds = Time.toSeconds(r.simulatedPs() - firstPostPs(r));
        m.put("aggregate_goodput_gbps", completed == 0 ? null : Numbers.round(gbps(completedBytes, seconds), 3));
        m.put("delivered_goodput_gbps", deliveredBytes < 0 ? null : Numbers.round(gbps(deliveredBytes, seconds), 3));
    }

    /** Payload bytes over a time as Gb/s; 0 over no time. */
    public static double gbps(long bytes, double seconds) {
        return seconds > 0 ? bytes * 8.0 / seconds / 1e9 : 0;
    }

    /**
     * The payload bytes every flow's receiver had in order by the run's end (flows.csv {@code delivered_bytes} summed),
     * or -1 when some flow's are not known (a flow-level fluid still under way).
     */
    public static long deliveredBytes(List<FlowRecord> flows) {
        long sum = 0;
        for (FlowRecord f : flows) {
            if (f.deliveredBytes() < 0) {
                return -1;
            }
            sum += f.deliveredBytes();
        }
        return sum;
    }

    /**
     * When the run's first flow was posted (0 when none was): the goodput is over the time from there, so that flows
     * that start late (an ns-3 flow file's at 2 s) do not divide their bytes by the idle time before them.
     */
    public static long firstPostPs(RunResult r) {
        if (r.flowsAreAggregated()) {
            return Math.max(0, r.flowsAggregated().all().firstStartPs());
        }
        long first = Long.MAX_VALUE;
        for (FlowRecord f : r.flows()) {
            if (f.startPs() >= 0) {
                first = Math.min(first, f.startPs());
            }
        }
        return first == Long.MAX_VALUE ? 0 : Math.min(first, r.simulatedPs());
    }

    private static Object micros(long ps) {
        return ps < 0 ? null : Numbers.micros(ps);
    }

    private static Map<String, Object> counters(FabricTotals t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("packets_dropped", t.packetsDropped());
        m.put("retransmitted_packets", t.retransmittedPackets());
        m.put("ecn_marked", t.ecnMarked());
        m.put("ecn_marked_arrived", t.ecnMarkedArrived());
        m.put("cnp_sent", t.cnpSent());
        m.put("pfc_pause_sent", t.pfcPauseSent());
        m.put("pfc_paused_us", Numbers.micros(t.pausedPs()));
        m.put("pfc_watchdog_storms", t.pfcWatchdogStorms());
        m.put("cnp_handled", t.cnpHandled());
        m.put("rate_cuts", t.rateCuts());
        Map<String, Object> drops = new LinkedHashMap<>();
        for (DropReason reason : DropReason.values()) {
            drops.put(reason.key(), t.dropped(reason));
        }
        drops.put("nic_out_of_buffer", t.nicOutOfBuffer());
        m.put("drops_by_reason", drops);
        m.put("naks_sent", t.naksSent());
        m.put("local_ack_timeouts", t.ackTimeouts());
        m.put("retry_exceeded", t.retryExceeded());
        m.put("data_bytes_sent", t.dataBytesSent());
        m.put("delivered_bytes", t.deliveredBytes());
        m.put("out_of_sequence", t.outOfSequence());
        m.put("duplicate_request", t.duplicateRequests());
        m.put("selective_retransmitted_packets", t.selectiveRetransmitted());
        m.put("selective_naks_sent", t.selectiveNaksSent());
        return m;
    }

    private static Object nan(double v) {
        return Double.isNaN(v) ? null : Numbers.round(v, 3);
    }

    /**
     * summary.json {@code oversubscription}: per oversubscribed tier its ratio, and at packet level (flows kept one by
     * one) its bound from the ports' counters beside the flows' time ({@link Oversubscription}).
     */
    private static List<Object> oversubscription(RunResult r, List<Oversubscription.Tier> tiers) {
        var topo = r.network().topology();
        boolean counted = r.packetLevel() && !r.flowsAreAggregated();
        List<Object> out = new ArrayList<>();
        for (Oversubscription.Tier t : tiers) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tier", Oversubscription.tierName(topo, t.tier()));
            row.put("switches", t.switches());
            row.put("ratio_min", Numbers.round(t.minRatio(), 3));
            row.put("ratio_max", Numbers.round(t.maxRatio(), 3));
            if (counted) {
                long first = firstStartPs(r);
                long last = lastEndPs(r);
                row.put("bound_switch", topo.nodeName(t.boundNode()));
                row.put("bound_direction", t.up() ? "up" : "down");
                row.put("bound_bytes", t.boundBytes());
                row.put("bound_capacity_gbps", Numbers.round(t.capacityBps() / 1e9, 3));
                row.put("bound_us", Numbers.micros(t.boundPs()));
                row.put("host_link_bound_us", Numbers.micros(t.hostBoundPs()));
                row.put("flows_us", Numbers.micros(Math.max(0, last - first)));
                row.put("set_the_pace", Oversubscription.setThePace(t, first, last));
                row.put("text", Oversubscription.boundWords(r.network(), t, first, last));
            }
            out.add(row);
        }
        return out;
    }

    /** The first flow's start (0 without flows). */
    static long firstStartPs(RunResult r) {
        return r.flows().stream().mapToLong(FlowRecord::startPs).min().orElse(0);
    }

    /** The last flow's end: its finish, or the run's end for a flow that did not finish. */
    static long lastEndPs(RunResult r) {
        return r.flows().stream().mapToLong(f -> f.completed() ? f.finishPs() : r.simulatedPs()).max().orElse(0);
    }
}
