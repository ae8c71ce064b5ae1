package rocelab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.credit.CreditRootNames;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.AtomicFiles;
import rocelab.observe.output.JsonText;
import rocelab.observe.output.Numbers;
import rocelab.scenario.NotPostedCause;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.scenario.read.UnitParser;

/** {@code rocelab journey}: simulates a scenario and tells the story of one flow, step by step, cause to effect. */
@Command(name = "journey", mixinStandardHelpOptions = true,
        description = "Simulate a scenario and tell the journey of one flow: its packets hop by hop, the marks and"
                + " the CNPs they caused, the rate cuts, drops and retransmissions, the PFC pauses on its path.")
final class JourneyCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario file (default: demo).")
    Path scenario;

    @Option(names = "--example", paramLabel = "NAME", description = "A built-in example instead of a file.")
    String example;

    @Option(names = "--flow", required = true, paramLabel = "ID", description = "The flow (flow_id in flows.csv).")
    int flow;

    @Option(names = "--packet", paramLabel = "PSN", defaultValue = "-1",
            description = "Follow this packet through every hop instead.")
    long packet;

    @Option(names = "--from", paramLabel = "TIME", defaultValue = "0",
            description = "Tell from this simulated time, e.g. 100us (default: ${DEFAULT-VALUE}, the start of the run).")
    String from;

    @Option(names = "--to", paramLabel = "TIME",
            description = "Tell until this simulated time (default: none, up to the flow's last event).")
    String to;

    @Option(names = "--max-lines", paramLabel = "N", defaultValue = "60",
            description = "Event lines to print; the rest are counted in one line (default: ${DEFAULT-VALUE}; --json"
                    + " has every event).")
    int maxLines;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write every event as JSON.")
    Path json;

    @Option(names = "--model", paramLabel = "MODEL", defaultValue = "packet",
            description = "Only packet: a journey follows packets, which the flow and ideal models do not have.")
    String model;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (!"packet".equals(model)) {
            err.println("error: --model " + model + ": a journey follows a flow's packets hop by hop, and only the"
                    + " packet model has packets; expected --model packet (or no --model)");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (example != null && scenario != null) {
            err.println("error: give either a SCENARIO file or --example, not both");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        ScenarioConfig config;
        long fromPs;
        long toPs;
        try {
            ScenarioReader reader = new ScenarioReader();
            config = example != null ? reader.readExample(example)
                    : scenario == null ? reader.readDemo() : reader.read(scenario);
            fromPs = UnitParser.timePs(from);
            toPs = to == null ? Long.MAX_VALUE : UnitParser.timePs(to);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        } catch (IllegalArgumentException e) {
            err.println("error: --from/--to: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        String flagProblem = flagProblem(fromPs, toPs);
        if (flagProblem != null) {
            err.println("error: " + flagProblem);
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        Simulation sim = Simulation.assemble(config);
        if (flow < 0 || flow >= sim.driver().flowCount()) {
            err.println("error: --flow " + flow + " does not exist; expected 0.." + (sim.driver().flowCount() - 1)
                    + " (flow_id in flows.csv)");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        int qp = sim.driver().queuePair(flow).id();
        PfcProbe previous = sim.pfcLog() != null ? sim.pfcLog() : PfcProbe.NONE;
        // One flow of the QP: a QP carries one flow after another (each step of a ring on one connection).
        JourneyRecorder recorder = new JourneyRecorder(sim.network(), qp, flow, previous)
                .creditsTo(sim.creditLog() != null ? sim.creditLog() : CreditProbe.NONE)
                .ecmpTo(sim.ecmpLog() != null ? sim.ecmpLog() : EcmpProbe.NONE);
        recorder.attach();
        RunResult result = sim.run(ProgressListener.NONE);
        FlowRecord f = result.flows().get(flow);
        if (f.completed()) {
            recorder.completed(f.finishPs(), f.src());
        }
        List<JourneyEvent> events = recorder.eventsOf(f.startPs(), f.completed() ? f.finishPs() : Long.MAX_VALUE);
        if (packet >= 0 && events.stream().noneMatch(e -> e.psn() == packet)) {
            var psns = events.stream().mapToLong(JourneyEvent::psn).filter(p -> p >= 0).summaryStatistics();
            err.println("error: --packet " + packet + ": flow " + flow + " sent no packet with that PSN; expected "
                    + (psns.getCount() == 0 ? "no --packet (the flow sent no packets)"
                    : "a PSN from " + psns.getMin() + " to " + psns.getMax()));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        List<JourneyRecorder.QueuedBehind> behind = recorder.queuedBehind(f.startPs());
        spec.commandLine().getOut().print(new JourneyText(sim.network(), sim.pfcLog(), sim.creditLog(), sim.ecmpLog())
                .queuedBehind(behind, recorder.firstSendPs())
                .runEnded(result.stopReason(), result.simulatedPs(), result.deadlockCycle(), result.deadlockSincePs())
                .notPosted(f.notPosted() ? NotPostedCause.of(sim.driver(), flow) : null)
                .render(f, events, packet, fromPs, toPs, maxLines));
        spec.commandLine().getOut().flush();
        if (json != null) {
            AtomicFiles.write(json, JsonText.render(toJson(f, events, sim, behind, recorder.firstSendPs(), result)));
        }
        return 0;
    }

    /**
     * A wait for credits: what the next hop's buffer held, as the credit update that ended the stall carried it (null
     * when none was carried): the egress its packets waited for there, the root and its kind, how many credit hops away.
     */
    private static void creditRoot(Map<String, Object> row, Topology topo, int nextHop,
            long root) {
        var names = new CreditRootNames(topo);
        boolean known = root >= 0;
        int holder = known ? CreditRoot.holder(root) : -1;
        row.put("held_for", holder < 0 ? null : names.link(nextHop, holder));
        row.put("root", known ? names.root(CreditRoot.kind(root), CreditRoot.node(root), CreditRoot.port(root)) : null);
        row.put("root_kind", known ? ROOT_KINDS[CreditRoot.kind(root)] : null);
        row.put("root_hops", known ? CreditRoot.depth(root) : null);
    }

    /** The {@code root_kind} of each {@link CreditRoot} kind, in the order of their codes. */
    private static final String[] ROOT_KINDS = {"congestion", "receiver", "round_trip", "unknown"};

    /** What is wrong with the flags that need no simulation, or null: checked before anything runs. */
    private String flagProblem(long fromPs, long toPs) {
        if (toPs <= fromPs) {
            return "--to " + to + " is not after --from " + from + "; expected an end time later than the start";
        }
        if (maxLines < 1) {
            return "--max-lines " + maxLines + " is not a number of lines; expected 1 or more (--json has every event)";
        }
        if (packet < -1) {
            return "--packet " + packet + " is not a PSN; expected a packet sequence number, 0 or more";
        }
        if (json != null) {
            String bad = OutputFolder.fileProblem(json, "journey.json");
            if (bad != null) {
                return "--json " + json + ": " + bad;
            }
        }
        return null;
    }

    private static Map<String, Object> toJson(FlowRecord f, List<JourneyEvent> events, Simulation sim,
            List<JourneyRecorder.QueuedBehind> behind, long firstSendPs, RunResult result) {
        var topo = sim.network().topology();
        var pfc = sim.pfcLog();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flow_id", f.id());
        m.put("src", f.src());
        m.put("dst", f.dst());
        m.put("size_bytes", f.sizeBytes());
        m.put("qp", f.queuePair());
        m.put("status", f.status());
        m.put("not_posted_because", f.notPosted() ? NotPostedCause.of(sim.driver(), f.id()) : null);
        m.put("fct_us", f.completed() ? Numbers.micros(f.fctPs()) : null);
        // What ended the run: for a flow that did not complete, whether a deadlock or the stop time cut it off.
        m.put("run_stop_reason", result.stopReason());
        m.put("run_end_us", Numbers.micros(result.simulatedPs()));
        m.put("first_sent_us", firstSendPs == Long.MAX_VALUE ? null : Numbers.micros(firstSendPs));
        List<Object> ahead = new ArrayList<>();
        for (JourneyRecorder.QueuedBehind q : behind) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("flow", q.flow());
            row.put("packets", q.packets());
            row.put("resent", q.resent());
            row.put("first_sent_us", Numbers.micros(q.firstSentPs()));
            row.put("last_sent_us", Numbers.micros(q.lastSentPs()));
            ahead.add(row);
        }
        m.put("queued_behind", ahead);
        List<Object> list = new ArrayList<>();
        for (JourneyEvent e : events) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("time_us", Numbers.micros(e.timePs()));
            row.put("kind", e.kind().name().toLowerCase(Locale.ROOT));
            row.put("node", topo.nodeName(e.node()));
            row.put("port", e.port());
            row.put("psn", e.psn());
            row.put("value", e.value());
            row.put("flag", e.flag());
            if (e.detail() != null) {
                row.put("detail", e.detail());
            }
            if (e.kind() == JourneyEvent.Kind.CNP_WITHHELD) {
                row.put("last_cnp_us", Numbers.micros(e.value()));
                row.put("cnp_interval_us", Numbers.micros(Long.parseLong(e.detail())));
                row.put("interval_per_port", e.flag());
            }
            if (e.cause() instanceof JourneyEvent.Notice n) {
                row.put("notification", n.number());
                row.put("notification_sent_us", Numbers.micros(n.sentPs()));
                row.put("marked_psn", n.psn());
                row.put("marked_by", n.markNode() < 0 ? null : topo.nodeName(n.markNode()));
                row.put("marked_port", n.markNode() < 0 ? null : n.markPort());
                row.put("marked_us", n.markNode() < 0 ? null : Numbers.micros(n.markAtPs()));
                row.put("marked_held_by_pause", n.markNode() < 0 ? null : n.markHeldByPause());
            } else if (e.cause() instanceof JourneyEvent.RateChange c) {
                row.put("from_bps", c.fromBps());
                row.put("to_bps", c.toBps());
                row.put("window_bytes", c.windowBytes() == Long.MAX_VALUE ? null : c.windowBytes());
                row.put("cause", c.cause().name().toLowerCase(Locale.ROOT));
                row.put("cause_value", c.value());
                row.put("cause_index", c.index());
                row.put("data_waiting", c.dataWaiting());
            } else if (e.cause() instanceof JourneyEvent.Wait w) {
                row.put("xoff_sent_us", w.xoffSentPs() < 0 ? null : Numbers.micros(w.xoffSentPs()));
            } else if (e.cause() instanceof JourneyEvent.CreditWait w) {
                row.put("vl", w.vl());
                row.put("next_hop", topo.nodeName(topo.peer(e.node(), e.port()).node()));
                row.put("packet_psn", w.psn());
                creditRoot(row, topo, topo.peer(e.node(), e.port()).node(), w.root());
            } else if (e.cause() instanceof JourneyEvent.Pause p) {
                row.put("reason", p.reason().name().toLowerCase(Locale.ROOT));
                if (p.reason() == PfcReason.SHARED_POOL_FULL) {
                    row.put("threshold_bytes", p.thresholdBytes());
                    row.put("shared_pool_used_bytes", p.poolUsedBytes());
                    row.put("shared_pool_bytes", p.poolBytes());
                }
            } else if (e.cause() instanceof JourneyEvent.Recovery r) {
                row.put("recovery", r.number());
                row.put("after", r.timeout() ? "local_ack_timeout" : "nak");
                row.put("selective", r.selective());
                row.put("sent_through_psn", r.sentThroughPsn());
                row.put("packets_to_resend", r.packets());
                if (r.timeout()) {
                    row.put("timer_started_us", Numbers.micros(r.timerStartPs()));
                    row.put("no_ack_since_us", Numbers.micros(r.noAckSincePs()));
                    row.put("timeout_us", Numbers.micros(r.timeoutPs()));
                    row.put("retry", r.retry());
                    row.put("retry_limit", r.retryLimit());
                    row.put("qp_failed", r.failed());
                }
            } else if (e.cause() instanceof JourneyEvent.Resend r) {
                row.put("recovery", r.recovery());
            } else if (e.cause() instanceof JourneyEvent.EcmpCollision c) {
                row.put("queue_bytes", c.queueBytes());
                row.put("ahead_flow", c.aheadFlow());
                row.put("ahead_qp", c.aheadQp());
                row.put("ahead_psn", c.aheadPsn());
                row.put("directly_ahead", c.directly());
                row.put("idle_port", c.idlePort());
                row.put("idle_towards", topo.nodeName(topo.peer(e.node(), c.idlePort()).node()));
                row.put("idle_us", Numbers.micros(c.idlePs()));
                // Already queued when the idle port fell idle (the switch looked then), not as it joined the queue.
                row.put("when_port_fell_idle", c.fellIdle());
            } else if (e.cause() instanceof JourneyEvent.EcmpWait w) {
                row.put("ecmp_wait_us", Numbers.micros(w.toPs() - w.fromPs()));
                row.put("new_ecmp_wait_us", Numbers.micros(w.newPs()));
                row.put("ahead_flow", w.collision() == null ? null : w.collision().aheadFlow());
            } else if (e.cause() instanceof JourneyEvent.BufferHeld h) {
                // What held the full shared buffer at the drop, as the switch counted it.
                row.put("buffer_holder_port", h.port() < 0 ? null : h.port());
                row.put("buffer_holder_towards", h.port() < 0 ? null : topo.nodeName(topo.peer(e.node(), h.port())
                        .node()));
                row.put("buffer_holder_tc", h.port() < 0 ? null : h.tc());
                row.put("buffer_holder_bytes", h.bytes());
                row.put("own_queue_bytes", h.ownBytes() < 0 ? null : h.ownBytes());
                row.put("shared_pool_used_bytes", h.poolUsedBytes());
                row.put("shared_pool_bytes", h.poolBytes());
                row.put("headroom_used_bytes", h.headroomUsedBytes());
            } else if (e.cause() instanceof JourneyEvent.WatchdogDrop w) {
                // The PFC frame that held the watchdog's queue paused, and that pause's root in the PFC log.
                row.put("priority", w.priority());
                row.put("xoff_sent_us", w.xoffSentPs() < 0 ? null : Numbers.micros(w.xoffSentPs()));
                var far = topo.peer(e.node(), e.port());
                var x = pfc == null ? null : pfc.xoff(far.node(), far.port(), w.priority(), w.xoffSentPs());
                row.put("xoff_by", topo.nodeName(far.node()));
                row.put("pause_root", x == null ? null : pfc.rootName(x.rootKind(), x.rootNode(), x.rootPort()));
                row.put("pause_hops", x == null ? null : x.depth() + 1);
            } else if (e.cause() instanceof JourneyEvent.LinkChange c) {
                row.put("peer", topo.nodeName(c.peerNode()));
                row.put("peer_port", c.peerPort());
                row.put("up", c.up());
            }
            list.add(row);
        }
        m.put("events", list);
        return m;
    }
}
