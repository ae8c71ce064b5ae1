package rocelab.observe.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import rocelab.engine.Time;
import rocelab.fabric.network.IdealSlowLinks;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.RetryFailure;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.Oversubscription;
import rocelab.observe.flow.HeldAlone;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.flow.Percentiles;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.TransferRecord;
import rocelab.observe.flow.SizeClasses;
import rocelab.observe.inference.InferenceTables;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.victim.Victims;

/** The human-readable summary printed at the end of {@code rocelab run}. */
public final class SummaryText {
    /** Slowdowns are kept as integers of this scale for the percentiles, fine enough that printing two decimals
     * rounds once (a scale of 1000 rounded 3.0048 to 3.005, then printed it as 3.01). */
    private static final double SLOWDOWN_SCALE = 1e6;

    /** Every reason that dropped a packet, with its count ({@code " (link down 184, no route 240)"}); none: empty. */
    static String dropReasons(FabricTotals t) {
        StringBuilder s = new StringBuilder();
        for (DropReason reason : DropReason.values()) {
            appendReason(s, reason.key(), t.dropped(reason));
        }
        appendReason(s, "nic_out_of_buffer", t.nicOutOfBuffer());
        return s.length() == 0 ? "" : " (" + s + ")";
    }

    private static void appendReason(StringBuilder s, String key, long count) {
        if (count > 0) {
            s.append(s.length() == 0 ? "" : ", ").append(key.replace('_', ' ')).append(' ').append(group(count));
        }
    }
    /**
     * Victims listed in the text (all when only one more is left); summary.json lists more, flows.csv every flow's
     * figures.
     */
    static final int VICTIMS_SHOWN = 5;
    /** A job's call is among its slowest only when it took more than this many times its ideal-network time. */
    public static final double SLOWEST_ABOVE = 1.05;

    private SummaryText() {}

    public static String render(RunResult r, String outputDir) {
        StringBuilder b = new StringBuilder();
        FabricTotals t = r.totals();
        var aggregated = r.flowsAreAggregated() ? r.flowsAggregated().all() : null;
        long completed = aggregated != null ? aggregated.completedCount()
                : r.flows().stream().filter(FlowRecord::completed).count();
        long failed = aggregated != null ? aggregated.failedCount()
                : r.flows().stream().filter(FlowRecord::failed).count();
        long flowCount = aggregated != null ? aggregated.count() : r.flows().size();
        // Flows a failure kept from being posted: not failed (they sent nothing), not unfinished (the run ended).
        long waitedOnFailure = aggregated != null ? 0 : r.flows().stream()
                .filter(f -> f.notPostedWhy() == FlowRecord.NotPosted.WAITED_ON_FAILURE).count();
        long queuePairFailedFirst = aggregated != null ? 0 : r.flows().stream()
                .filter(f -> f.notPostedWhy() == FlowRecord.NotPosted.QUEUE_PAIR_FAILED_FIRST).count();
        long notPosted = waitedOnFailure + queuePairFailedFirst;
        Percentiles fct = new Percentiles(
                r.flows().stream().filter(FlowRecord::completed).mapToLong(FlowRecord::fctPs).toArray());
        Percentiles slow = new Percentiles(r.flows().stream().filter(FlowRecord::completed)
                .mapToLong(f -> Math.round(f.slowdown() * SLOWDOWN_SCALE)).toArray());
        long bytes = aggregated != null ? aggregated.bytesCompleted()
                : r.flows().stream().filter(FlowRecord::completed).mapToLong(FlowRecord::sizeBytes).sum();
        var topo = r.network().topology();
        line(b, "scenario %s · mode %s%s · seed %d · rocelab %s", r.scenario(), r.mode(),
                r.packetLevel() ? "" : " · model " + r.model(), r.seed(), r.version());
        List<Oversubscription.Tier> tiers = Oversubscription.find(r.network(), r.packetLevel());
        StringBuilder ratios = new StringBuilder();
        for (Oversubscription.Tier ot : tiers) {
            ratios.append("; ").append(Oversubscription.ratioWords(r.network(), ot));
        }
        line(b, "fabric   %s, %s%s", Numbers.count(topo.hostCount(), "host", "hosts"),
                Numbers.count(topo.switchCount(), "switch", "switches"), ratios);
        for (Oversubscription.Tier ot : r.packetLevel() && aggregated == null ? tiers : List.<Oversubscription.Tier>of()) {
            line(b, "         %s", Oversubscription.boundWords(r.network(), ot, Summary.firstStartPs(r),
                    Summary.lastEndPs(r)));
        }
        line(b, "");
        line(b, "flows       %s completed of %s%s%s%s", group(completed), group(flowCount),
                (failed > 0 ? ", " + group(failed) + " FAILED (retries exhausted)" : "")
                        + (notPosted > 0 ? ", " + group(notPosted) + " never posted (a failure reached them first)"
                                : ""),
                r.finished() ? "" : ", " + group(flowCount - completed - failed - notPosted)
                        + unfinishedWhy(r.stopReason())
                        + notPosted(r, aggregated != null),
                aggregated != null ? " (aggregated: flows_aggregated.csv, no row per flow)" : "");
        if (r.nvlinkTransfers() > 0) {
            line(b, "nvlink      %s %s (%s bytes) %s", group(r.nvlinkTransfers()),
                    r.nvlinkTransfers() == 1 ? "transfer" : "transfers", group(r.nvlinkBytes()), Summary.NVLINK_NOTE);
        }
        if ("deadlock".equals(r.stopReason())) {
            // The checks see only whether data moved since the one before: it stopped somewhere in the millisecond up
            // to that check (pfc-deadlock-ring: at about 40 us, its check at 1,000 us), and moved no more.
            line(b, "DEADLOCK    data stopped moving at or before %s us (the checks run 1 ms apart; throughput.csv shows"
                    + " when) and moved no more; these %s wait on each other in a cycle:",
                    us(r.deadlockSincePs()), "infiniband".equals(r.mode())
                            ? "queues, held for credits (a credit loop)," : "paused queues");
            line(b, "            %s -> (back to the first)", String.join(" -> ", r.deadlockCycle()));
        } else if ("all-failed".equals(r.stopReason()) || "some-failed".equals(r.stopReason())) {
            // Every flow ended, but not every one completed: the run did not do what it was asked.
            line(b, "FAILED      %s, %s out of retries%s; the run ended with stop_reason %s%s",
                    failed == flowCount ? "no flow completed: all " + failed + " failed"
                            : (completed == 0 ? "no flow completed: " : "") + failed + " of " + flowCount
                                    + (flowCount == 1 ? " flow" : " flows") + " failed",
                    failed == 1 ? "its QP" : "their QPs", notPostedWhy(waitedOnFailure, queuePairFailedFirst),
                    r.stopReason(),
                    r.packetLevel() && t.packetsDropped() > 0 ? "; what was dropped, and why: loss below" : "");
        } else if ("stalled".equals(r.stopReason())) {
            long paused = 0;
            for (int s = 0; s < r.network().switchCount(); s++) {
                var sw = r.network().switchAt(s);
                for (int p = 0; p < sw.portCount(); p++) {
                    for (int prio = 0; prio < 8; prio++) {
                        paused += sw.port(p).isPaused(prio) ? 1 : 0;
                    }
                }
            }
            line(b, "STALLED     no data packet moved for a long stretch of simulated time with flows unfinished;"
                    + " %d switch port priorities are paused right now%s", paused,
                    paused > 0 ? " (a PFC deadlock? see pfc.csv)" : "");
        }
        if (!"deadlock".equals(r.stopReason()) && !r.deadlockCycle().isEmpty()) {
            // A cycle the PFC watchdog on one of its queues was to break: the run went on for it (Simulation.loop).
            line(b, "DEADLOCK    data stopped moving at or before %s us (the checks run 1 ms apart; throughput.csv shows"
                    + " when); these paused queues waited on each other in a cycle:", us(r.deadlockSincePs()));
            line(b, "            %s -> (back to the first)", String.join(" -> ", r.deadlockCycle()));
            line(b, "            a PFC watchdog watches one of them, so the run went on: it declared %s pause %s in the"
                    + " run (ports.csv pfc_wd_storms_detected), ignoring PFC on a stuck queue%s",
                    group(t.pfcWatchdogStorms()), t.pfcWatchdogStorms() == 1 ? "storm" : "storms",
                    t.droppedPfcWatchdog() > 0 ? " and dropping " + group(t.droppedPfcWatchdog()) + " packets" : "");
        }
        retryFailures(b, r);
        if (aggregated != null && completed > 0) {
            line(b, "FCT (us)    min %s   p50 %s   p90 %s   p99 %s   max %s   (quantiles at most 0.8 %% low)",
                    us(aggregated.fctMinPs()), us(aggregated.fctQuantilePs(0.5)), us(aggregated.fctQuantilePs(0.9)),
                    us(aggregated.fctQuantilePs(0.99)), us(aggregated.fctMaxPs()));
            line(b, "slowdown    p50 %.2f   p99 %.2f   max %.2f   (FCT / its closed form alone on an idle fabric)",
                    aggregated.slowdownQuantile(0.5), aggregated.slowdownQuantile(0.99), aggregated.slowdownMax());
            long first = Summary.firstPostPs(r);
            double seconds = Time.toSeconds(r.simulatedPs() - first);
            line(b, "goodput     %.2f Gbps aggregate (%s)", seconds > 0 ? bytes * 8 / seconds / 1e9 : 0.0,
                    goodputSpan(bytes, completed == flowCount, aggregated.lastFinishPs(), first, r.simulatedPs(), ""));
        }
        if (fct.count() > 0) {
            line(b, "FCT (us)    min %s   p50 %s   p90 %s   p99 %s   max %s", us(fct.min()), us(fct.percentile(50)),
                    us(fct.percentile(90)), us(fct.percentile(99)), us(fct.max()));
            line(b, "slowdown    p50 %.2f   p99 %.2f   max %.2f   (FCT / its closed form alone on an idle fabric)",
                    slow.percentile(50) / SLOWDOWN_SCALE, slow.percentile(99) / SLOWDOWN_SCALE,
                    slow.max() / SLOWDOWN_SCALE);
            qpWaitLine(b, r.flows());
            // The flows by size class, where flows are what the run is about (not a job's or a collective's messages,
            // whose story is the call's time against its ideal) and there are enough of them for a distribution (the
            // demo's six flows are each told on their own).
            List<SizeClasses.SizeClass> classes = r.collectives().isEmpty() && r.jobs().isEmpty()
                    && r.services().isEmpty() && r.requests().isEmpty() && fct.count() >= BY_SIZE_FROM ? SizeClasses.of(r.flows()) : List.of();
            if (!classes.isEmpty()) {
                StringBuilder by = new StringBuilder();
                for (SizeClasses.SizeClass c : classes) {
                    if (c.flows() > 0 || c.notCompleted() > 0) {
                        // Under 100 flows the nearest-rank p99 is the largest: said as such.
                        by.append(by.length() == 0 ? "" : "   ").append(c.label()).append(": ");
                        if (c.flows() > 0) {
                            by.append(String.format(Locale.ROOT, c.flows() >= 100 ? "p50 %.2f p99 %.2f"
                                    : "p50 %.2f max %.2f", c.p50(), c.p99()));
                        }
                        by.append(c.flows() > 0 ? " (" : "(").append(Numbers.count(c.flows(), "flow", "flows"));
                        if (c.notCompleted() > 0) {
                            by.append("; ").append(c.notCompleted()).append(" not completed, not counted");
                        }
                        by.append(')');
                    }
                }
                line(b, "by size     %s", by);
            }
            long first = Summary.firstPostPs(r);
            double seconds = Time.toSeconds(r.simulatedPs() - first);
            // The figure is the completed flows' (summary.json's aggregate_goodput_gbps); flows still running or
            // failed have delivered bytes too, which the packet level counts.
            boolean allDone = completed == flowCount;
            long lastFinish = r.flows().stream().filter(FlowRecord::completed).mapToLong(FlowRecord::finishPs).max()
                    .orElse(-1);
            line(b, "goodput     %.2f Gbps aggregate (%s)", seconds > 0 ? bytes * 8 / seconds / 1e9 : 0.0,
                    goodputSpan(bytes, allDone, lastFinish, first, r.simulatedPs(), ""));
        }
        if (aggregated == null && completed < flowCount) {
            deliveredLine(b, r);
        }
        for (var j : r.jobs()) {
            if (!j.completed()) {
                line(b, "job         %s: %s, did not complete (ideal network: %s ms)", j.job(),
                        Numbers.count(j.ranks(), "rank", "ranks"),
                        ms(j.idealJctPs()));
                continue;
            }
            // The ideal model compared with itself has no penalty to tell: zero by construction, not a finding.
            boolean ideal = "ideal".equals(r.model());
            if (ideal) {
                line(b, "job         %s: %s, %s%s: JCT %s ms on the ideal network (its penalty is told by a run of the"
                        + " packet or flow model)", j.job(), Numbers.count(j.ranks(), "rank", "ranks"),
                        Numbers.count(j.iterations(), "iteration", "iterations"), j.warmup() > 0 ? " ("
                        + j.warmup() + " warm-up)" : "", ms(j.idealJctPs()));
            } else {
                line(b, "job         %s: %s, %s%s: JCT %s ms, ideal network %s ms, network penalty %s ms"
                        + " (%.1f%%)", j.job(), Numbers.count(j.ranks(), "rank", "ranks"),
                        Numbers.count(j.iterations(), "iteration", "iterations"), j.warmup() > 0 ? " ("
                        + j.warmup() + " warm-up)" : "", ms(j.jctPs()), ms(j.idealJctPs()), ms(j.networkPenaltyPs()),
                        j.networkPenaltyPercent());
            }
            // The time per iteration is from one iteration's end to the next's, the rate at which the job finishes
            // them. An iteration runs from its first compute or send (or a delay that one waited for) to the last
            // rank's end: where iterations overlap (a pipeline) that span is longer, and said apart, since adding
            // spans counts the overlap twice. A GPU's own span differs again (ranks start and end apart), and its three
            // parts add up to that span. Exposed communication counts a call's posted transfers from the rank's entry,
            // so a wait for a straggler to enter shows there: told as its part, when it is 1 % of it or more.
            boolean overlap = j.iterationUs() > j.perIterationUs() * 1.01;
            line(b, "  GPU view  per iteration %.3f ms, from one iteration's end to the next (ideal %.3f ms)%s; per"
                    + " GPU, over its own %.3f ms: compute %.3f ms, exposed communication %.3f ms%s, idle %.3f ms",
                    j.perIterationUs() / 1e3, j.idealPerIterationUs() / 1e3, overlap ? String.format(Locale.ROOT,
                            "; iterations overlap: each spans %.3f ms from its first compute or send (or a delay it"
                                    + " waited for) to its last rank's end (ideal %.3f ms)", j.iterationUs() / 1e3,
                            j.idealIterationUs() / 1e3) : "",
                    (j.computeUs() + j.exposedCommUs() + j.idleUs()) / 1e3, j.computeUs() / 1e3,
                    j.exposedCommUs() / 1e3, j.lateEntryUs() >= j.exposedCommUs() / 100 && j.lateEntryUs() >= 0.5
                            ? String.format(Locale.ROOT, " (%.3f ms of it in calls it had entered before their last"
                                    + " member did, outside the calls' own time)", j.lateEntryUs() / 1e3)
                            : "", j.idleUs() / 1e3);
            if (!ideal) {
                // Each rank's wait is against its own ideal span, each a bound of its own and not one schedule, so
                // together they can add up to more than the job lost; said where they do, so the two figures are not
                // read as contradicting each other.
                int measured = j.iterations() - j.warmup();
                boolean beyondPenalty = j.completed() && measured > 0
                        && j.networkWaitUs() * measured * 1e6 > j.networkPenaltyPs() * 1.05 + 1e6;
                line(b, "  network   GPUs waited on the network %.3f ms per iteration beyond an ideal network (worst"
                        + " rank %.3f ms)%s%s", j.networkWaitUs() / 1e3, j.maxNetworkWaitUs() / 1e3, beyondPenalty
                        ? String.format(Locale.ROOT, "; each rank against its own ideal, not one schedule, so more than"
                                + " the job's penalty of %s ms", ms(j.networkPenaltyPs())) : "", besideJob(j));
            }
            // Calls of the warm-up iterations are left out, as the per-iteration figures above and compare's
            // collective_us leave them out; how many of them would have been listed is said.
            var beyond = r.collectives().stream().filter(c -> c.job().equals(j.job()) && c.completed()
                    && !Double.isNaN(c.networkSlowdown()) && c.networkSlowdown() > SLOWEST_ABOVE).toList();
            var worst = beyond.stream().filter(c -> !c.warmUp(r.jobs()))
                    .sorted((x, y) -> Double.compare(y.timePs() - y.idealTimePs(), x.timePs() - x.idealTimePs()))
                    .limit(3).toList();
            long warmUp = beyond.stream().filter(c -> c.warmUp(r.jobs())).count();
            for (var c : worst) {
                // A call has the same name in every iteration: the iteration tells the calls apart.
                line(b, "  slowest   %s%s (%s, %,d B): %s us, ideal %s us (x%.2f)%s", c.name(), c.iteration() < 0
                        ? "" : " in iteration " + c.iteration(), c.algorithm(), c.sizeBytes(), us(c.timePs()),
                        us(c.idealTimePs()), c.networkSlowdown(), beside(c));
            }
            for (var x : j.slowestTransfers()) {
                line(b, "  slowest   transfer %s in iteration %d (%,d B, flow %d): %s us, alone on an idle fabric %s us"
                        + " (x%.2f)%s", x.name(), x.iteration(), x.bytes(), x.flow(), us(x.fctPs()),
                        us(x.idealFctPs()), x.slowdown(), transferWaits(r, x.flow()) + besideTransfer(x));
            }
            if (warmUp > 0) {
                line(b, "            %s(%s over 1.05x %s ideal not counted)", worst.isEmpty()
                        ? "no call after the warm-up over 1.05x its ideal " : "",
                        Numbers.count(warmUp, "warm-up call", "warm-up calls"), warmUp == 1 ? "its" : "their");
            }
            if (!ideal && worst.isEmpty() && j.networkWaitUs() >= 1) {
                // The GPUs waited on the network and no call after the warm-up tells why: where that wait can be.
                entrySpread(b, r, j);
            }
        }
        for (var s : InferenceTables.stats(r.services(), r.requests())) {
            if (s.requests() == 0) {
                // The service is in the scenario: its absence from the summary would read as a mistake of the run.
                line(b, "inference   %s: 0 of 0 requests completed (no request arrived in its arrival window)",
                        s.service());
                continue;
            }
            line(b, "inference   %s: %,d of %,d requests completed", s.service(), s.completed(), s.requests());
            // Each line says which requests its percentiles are over: a request that did not complete has no E2E,
            // but one that had its first token has its TTFT, which leaving out would flatter the service.
            if (s.ttft().count() > 0) {
                line(b, "  TTFT (ms) p50 %s   p90 %s   p99 %s   (over %s)", ms(s.ttft().percentile(50)),
                        ms(s.ttft().percentile(90)), ms(s.ttft().percentile(99)), s.unfinishedTtft() == 0
                                ? "the " + s.ttft().count() + " completed" : String.format(Locale.ROOT,
                                        "the %,d with a first token, %,d of them unfinished", s.ttft().count(),
                                        s.unfinishedTtft()));
            }
            if (s.completed() == 0) {
                continue;
            }
            if (s.tpot().count() > 0) {
                line(b, "  TPOT (ms) p50 %s   p90 %s   p99 %s   (over %s)", ms(s.tpot().percentile(50)),
                        ms(s.tpot().percentile(90)), ms(s.tpot().percentile(99)), s.tpot().count() == s.completed()
                                ? "the " + group(s.completed()) + " completed" : String.format(Locale.ROOT,
                                        "%,d of the %,d completed; the others made one token in each call",
                                        s.tpot().count(),
                                        s.completed()));
            }
            // No ideal median here: the median E2E less the median ideal E2E is not any request's wait (the two
            // medians may be of different requests); the next line has the requests' own differences.
            line(b, "  E2E (ms)  p50 %s   p90 %s   p99 %s   (over the %,d completed)", ms(s.e2e().percentile(50)),
                    ms(s.e2e().percentile(90)), ms(s.e2e().percentile(99)), s.completed());
            line(b, "  network wait (ms) p50 %s   p99 %s   max %s   (over the %,d completed, each its E2E minus its own"
                    + " E2E on an ideal network)%s", ms(s.networkWait().percentile(50)),
                    ms(s.networkWait().percentile(99)), ms(s.networkWait().max()), s.completed(), besideService(s));
        }
        for (var c : r.collectives()) {
            if (!c.job().isEmpty()) {
                continue;
            }
            line(b, "collective  %s: %s, %d ranks, %,d bytes%s: %s", c.name(), c.algorithm(), c.ranks(), c.sizeBytes(),
                    c.runs() > 1 ? String.format(Locale.ROOT, " x %d runs back to back", c.runs()) : "",
                    c.completed() ? String.format(Locale.ROOT, "%s us%s, algbw %.2f GB/s, busbw %.2f GB/s%s",
                            us(c.timePs()), c.runs() > 1 ? String.format(Locale.ROOT, " (%s us per run)",
                                    us(c.timePs() / c.runs())) : "", c.algbwGBps(), c.busbwGBps(), c.idealTimePs() > 0
                                    ? String.format(Locale.ROOT, " (ideal network %s us)", us(c.idealTimePs())) : "")
                            + beside(c) : "did not complete");
        }
        if (r.network().linkEventCount() > 0 && !"ideal".equals(r.model()) && reportsIdeal(r)) {
            // IdealNetwork takes every path with every link up, and the ideal FCTs (IdealFlowTime) too.
            line(b, "ideal       the ideal network these figures compare against has every link up the whole run: the"
                    + " scenario's %s in this run, not in its ideal", r.network().linkEventCount() == 1
                            ? "1 link event (a link going down or up) is"
                            : r.network().linkEventCount() + " link events (links going down or up) are");
        }
        if (!"ideal".equals(r.model()) && reportsIdeal(r)) {
            // The ideal is an idle fabric of this fabric's links: a degraded cable is in it, and GPU wait leaves it out.
            String slowLinks = IdealSlowLinksText.sentence(IdealSlowLinks.of(r.network().topology()));
            if (!slowLinks.isEmpty()) {
                line(b, "ideal       %s", slowLinks);
            }
        }
        if (!r.packetLevel()) {
            line(b, "not modelled %s", r.notModelled() != null ? r.notModelled() : RunResult.NOT_MODELLED);
            line(b, "");
            if ("ideal".equals(r.model())) {
                // Nothing ran: the end is the bound of the workload's last completion, and there were no events.
                line(b, "ideal end %s us (the bound of the workload's last completion on the ideal network; nothing"
                        + " simulated) · wall %.2f s", us(r.simulatedPs()), r.wallSeconds());
            } else {
                line(b, "simulated %s us · %s events · wall %.2f s · %.2f M events/s", us(r.simulatedPs()),
                        group(r.events()), r.wallSeconds(), r.eventsPerSecond() / 1e6);
            }
            if (outputDir != null) {
                line(b, "output    %s", outputDir);
            }
            return b.toString();
        }
        line(b, "loss        %s dropped%s   %s retransmitted   %s NAKs   %s ACK"
                + " timeouts", group(t.packetsDropped()), dropReasons(t),
                group(t.retransmittedPackets()),
                group(t.naksSent()), group(t.ackTimeouts()));
        if (anySelectiveRepeat(r.network())) {
            line(b, "reorder     %s out of sequence (placed)   %s duplicates   %s selective retransmissions   %s"
                    + " selective NAKs", group(t.outOfSequence()), group(t.duplicateRequests()),
                    group(t.selectiveRetransmitted()), group(t.selectiveNaksSent()));
        } else if (t.outOfSequence() > 0 || t.duplicateRequests() > 0) {
            line(b, "%s", goBackNReorder(t, keepsOnePathInOrder(r.network())));
        }
        var lanes = VirtualLanes.of(r.network());
        if (lanes != null) {
            infiniband(b, t, lanes);
        } else {
        // Marks are counted where they are made, so a packet marked at two switches counts twice: the count says so,
        // with the data packets that reached their RNIC marked (each answered by a CNP at most).
        // A CNP its sender's control does not act on (nic.cc none, a delay- or telemetry-based control, DCQCN with its
        // reaction point off) is counted by the RNIC as ignored: "0 handled" alone read as if none had arrived.
        line(b, "congestion  %s   %s CNPs sent   %s handled%s   %s rate cuts", ecnMarks(t), group(t.cnpSent()),
                group(t.cnpHandled()), t.cnpIgnored() == 0 ? "" : String.format(Locale.ROOT, "   %s ignored (their"
                        + " senders' congestion control does not act on CNPs)", group(t.cnpIgnored())),
                group(t.rateCuts()));
        line(b, "PFC         %s pause frames sent   %s us paused in all (ports and RNICs)%s", group(t.pfcPauseSent()),
                us(t.pausedPs()), t.pfcWatchdogStorms() == 0 ? "" : String.format(Locale.ROOT,
                        "   watchdog: %s, %s packets dropped", Numbers.count(t.pfcWatchdogStorms(), "storm", "storms"),
                        group(t.droppedPfcWatchdog())));
        }
        if (r.pfcLog() != null) {
            pauseCycles(b, r);
            pauseTree(b, r);
            victims(b, "PFC victims", r.pfcLog().victims(r.flows(), r.simulatedPs()), topo,
                    PfcVictims.wording(r.pfcLog()), "summary.json pfc_victims, flows.csv victim_wait_us");
        }
        if (r.creditLog() != null) {
            victims(b, "IB victims ", r.creditLog().victims(r.flows(), r.simulatedPs()), topo, r.creditLog().wording(),
                    "summary.json ib_victims, flows.csv victim_wait_us");
        }
        if (r.ecmpLog() != null) {
            ecmpCollisions(b, r);
        }
        if (r.packetLevel() && r.series() != null) {
            heldByRate(b, r);
        }
        line(b, "peak queue  %s bytes%s", group(t.maxQueueBytes()),
                t.maxQueuePort().isEmpty() ? "" : " at " + t.maxQueuePort() + towards(r, t.maxQueuePort()));
        line(b, "");
        line(b, "simulated %s us · %s data packets · %s events · wall %.2f s · %.2f M events/s",
                us(r.simulatedPs()), group(t.dataPacketsSent()), group(r.events()), r.wallSeconds(),
                r.eventsPerSecond() / 1e6);
        if (outputDir != null) {
            line(b, "output    %s", outputDir);
        }
        return b.toString();
    }

    /**
     * The victims of a lossless fabric's flow control, the ones that waited most first, each with its evidence: a
     * victim's waits are rooted off its own round trip, neither on its data's way nor on its ACKs'.
     */
    private static void victims(StringBuilder b, String label, List<Victims.Victim>
            victims, Topology topo, Victims.Wording words,
            String listedIn) {
        if (victims.isEmpty()) {
            return;
        }
        int shown = Numbers.shown(victims.size(), VICTIMS_SHOWN);
        line(b, "%s %,d flow%s waited %s rooted at %s off %s own way there and back%s:", label, victims.size(),
                victims.size() == 1 ? "" : "s", words.waited(), words.rootKinds(), victims.size() == 1 ? "its" : "their",
                victims.size() > shown ? String.format(Locale.ROOT, " (the %d that waited most; %s)", shown, listedIn)
                        : "");
        for (int i = 0; i < shown; i++) {
            line(b, "            %s", Victims.describe(topo, victims.get(i), words));
        }
    }

    /**
     * When not every flow completed (a stop time, failures): the goodput of every flow, completed or not, from the
     * payload bytes their receivers had in order by the end (summary.json {@code delivered_goodput_gbps}, flows.csv
     * {@code delivered_bytes}), over the goodput line's time; nothing when some flow's bytes are not known (flow level).
     */
    private static void deliveredLine(StringBuilder b, RunResult r) {
        long delivered = Summary.deliveredBytes(r.flows());
        if (delivered < 0) {
            return;
        }
        long first = Summary.firstPostPs(r);
        String from = first > 0 ? " from the first post at " + us(first) + " us" : "";
        line(b, "delivered   %.2f Gbps of all flows, completed or not (%s payload bytes their receivers had in order"
                + " over the run's %s us%s; flows.csv delivered_bytes, throughput.csv per QP over time)",
                Summary.gbps(delivered, Time.toSeconds(r.simulatedPs() - first)), group(delivered),
                us(r.simulatedPs() - first), from);
    }

    /**
     * What the goodput line divides: the completed flows' payload bytes, over the run's simulated time from its first
     * post. A flow
     * completes when its last ACK is back at its sender, not when its last byte arrives (one ACK's way back later), so
     * a run that ends with its last flow's completion says the time includes that ACK; one that runs on past it (a
     * job's compute, a stop time) says the time is the run's.
     */
    static String goodputSpan(long bytes, boolean allDone, long lastFinishPs, long firstPostPs, long endPs,
            String more) {
        String what = group(bytes) + (allDone ? " payload bytes" : " payload bytes of the completed flows");
        // Over the time from the first post: flows that start late (an ns-3 flow file's start at 2 s) would otherwise
        // divide their bytes by the idle time before them too.
        String from = firstPostPs > 0 ? " from the first post at " + us(firstPostPs) + " us" : "";
        return lastFinishPs == endPs ? String.format(Locale.ROOT, "%s completed in %s us%s, the last ACK included%s",
                what, us(endPs - firstPostPs), from, more)
                : String.format(Locale.ROOT, "%s over the run's %s us%s%s", what, us(endPs - firstPostPs), from, more);
    }

    /**
     * Under the slowdown line, when some completed flows were posted while their QP still had packets of earlier
     * messages to send and so waited for their first packet to leave (flows.csv qp_wait_us, part of their FCT): how
     * many, the longest wait, and the slowdown of every completed flow with that wait taken out of its FCT. Nothing
     * when none waited (the slowdown line is then the whole story).
     */
    static void qpWaitLine(StringBuilder b, List<FlowRecord> flows) {
        long waited = 0;
        long longest = 0;
        for (FlowRecord f : flows) {
            if (f.completed() && f.qpWaitPs() > 0) {
                waited++;
                longest = Math.max(longest, f.qpWaitPs());
            }
        }
        if (waited == 0) {
            return;
        }
        Percentiles after = new Percentiles(flows.stream().filter(FlowRecord::completed)
                .mapToLong(f -> Math.round(f.slowdownAfterQpWait() * SLOWDOWN_SCALE)).toArray());
        line(b, "            %s waited behind their own QP's earlier messages before their first packet, up to %s us"
                + " (flows.csv qp_wait_us); without that wait: p50 %.2f   p99 %.2f   max %.2f",
                Numbers.count(waited, "flow", "flows"), us(longest), after.percentile(50) / SLOWDOWN_SCALE,
                after.percentile(99) / SLOWDOWN_SCALE, after.max() / SLOWDOWN_SCALE);
    }

    /** The completed flows from which the summary gives the slowdown by size class. */
    static final int BY_SIZE_FROM = 100;

    /** Receivers told one by one when congestion control held their senders back ({@link HeldByRate}). */
    static final int HELD_SHOWN = 3;

    /**
     * Receivers whose every sender's rate held it back most of its life while the receiver's link had room: the two
     * measurements side by side, each with where it comes from.
     */
    private static void heldByRate(StringBuilder b, RunResult r) {
        var topo = r.network().topology();
        List<HeldByRate> held = HeldByRate.find(r.flows(), r.simulatedPs(), r.network(), r.series(), r.pfcLog());
        int shown = Numbers.shown(held.size(), HELD_SHOWN);
        for (int i = 0; i < shown; i++) {
            HeldByRate h = held.get(i);
            // As summary.json has them (three decimals), so the report, built from that file, says the same.
            String lo = percent(h.minShare());
            String hi = percent(h.maxShare());
            line(b, "%s the %,d flows into %s spent %s %% of their lives with data ready that their congestion"
                    + " control's rate held back (flows.csv rate_held_us), while %s port %d (towards %s) carried %s %% of"
                    + " its capacity from %s us to %s us, when all of them were sending, and no port on their paths more"
                    + " than %s %% (links.csv); %s",
                    i == 0 ? "rate held  " : "           ", h.flows(), topo.nodeName(h.receiver()),
                    lo.equals(hi) ? lo : lo + "-" + hi, topo.nodeName(h.switchIndex() + topo.hostCount()), h.port(),
                    topo.nodeName(h.receiver()), percent(h.utilisation()), Numbers.micros(h.fromPs()).toPlainString(),
                    Numbers.micros(h.toPs()).toPlainString(), percent(h.pathUtilisation()),
                    h.pausedWaitPs() == 0 ? "none of them waited behind a pause"
                            : "they waited " + us(h.pausedWaitPs()) + " us behind pauses, summed over flows and hops");
        }
        if (held.size() > shown) {
            line(b, "            (%d of %d receivers shown; summary.json held_by_rate)", shown, held.size());
        }
        List<HeldAlone> alone = HeldAlone.find(r.flows(), r.simulatedPs(), r.network(), r.series(), held);
        int told = Numbers.shown(alone.size(), HELD_SHOWN);
        for (int i = 0; i < told; i++) {
            line(b, "%s %s", held.isEmpty() && i == 0 ? "rate held  " : "           ", heldAlone(alone.get(i), topo));
        }
        if (alone.size() > told) {
            line(b, "            (%d of %d such flows shown; summary.json held_alone)", told, alone.size());
        }
    }

    /**
     * "flow 0 (h4->h0), the last into h0, alone there from 3010 us to 6600 us: ..." (the rates and shares as
     * summary.json rounds them, so that the report says the same).
     */
    public static String heldAlone(HeldAlone h, Topology topo) {
        String lo = gbps(h.minRateBps());
        String hi = gbps(h.maxRateBps());
        return String.format(Locale.ROOT, "flow %d (%s->%s), the last into %s, alone there from %s us to %s us: its"
                + " congestion control allowed it %s Gb/s of the link's %s Gb/s, with %s in that time (rates.csv), while"
                + " %s port %d (towards %s) carried %s %% of its capacity and no port on its path more than %s %%"
                + " (links.csv); it spent %s %% of its life with"
                + " data ready that its rate held back (flows.csv rate_held_us)", h.flow(), topo.nodeName(h.sender()),
                topo.nodeName(h.receiver()), topo.nodeName(h.receiver()), Numbers.micros(h.fromPs()).toPlainString(),
                Numbers.micros(h.toPs()).toPlainString(), lo.equals(hi) ? lo : lo + "-" + hi, gbps(h.linkBps()),
                h.notifications() == 0 ? "no congestion notification" : Numbers.count(h.notifications(),
                        "congestion notification", "congestion notifications"),
                topo.nodeName(h.switchIndex() + topo.hostCount()), h.port(), topo.nodeName(h.receiver()),
                percent(h.utilisation()), percent(h.pathUtilisation()), percent(h.heldShare()));
    }

    /** A rate in Gb/s with one decimal, from its value rounded to three decimals as summary.json has it. */
    private static String gbps(long bps) {
        return String.format(Locale.ROOT, "%.1f", Numbers.round(bps / 1e9, 3).doubleValue());
    }

    /** A share as a percentage with one decimal, from its value rounded to three decimals as summary.json has it. */
    public static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f", Numbers.round(share, 3).doubleValue() * 100);
    }

    /** Collision ports told one by one in the printed summary (all when only one more is left; summary.json lists more). */
    static final int COLLISIONS_SHOWN = 3;

    /**
     * The ports where flows the ECMP hash had put together waited while an equal-cost port was idle, the ones they
     * waited at most first, each as the switch recorded it ({@link EcmpLog#describe}).
     */
    private static void ecmpCollisions(StringBuilder b, RunResult r) {
        var found = r.ecmpLog().collisions(r.flows());
        if (found.isEmpty()) {
            return;
        }
        int shown = Numbers.shown(found.size(), COLLISIONS_SHOWN);
        line(b, "ECMP        collisions at %,d port%s: flows the hash put on a port queued there behind another flow's"
                + " data while an equal-cost port was idle, %s%s:",
                found.size(), found.size() == 1 ? "" : "s", EcmpLog.TOLD_WORDS, found.size() > shown ? String.format(Locale.ROOT,
                        " (the %d they waited at most; summary.json ecmp_collisions, flows.csv ecmp_wait_us; %s)",
                        shown, WAIT_NOT_LOSS) : " (flows.csv ecmp_wait_us; " + WAIT_NOT_LOSS + ")");
        for (int i = 0; i < shown; i++) {
            line(b, "            %s", r.ecmpLog().describe(found.get(i), r.flows()));
        }
        line(b, "            %s", EcmpLog.MODES);
        Set<String> receivers = new TreeSet<>();
        boolean starved = false;
        for (var c : found) {
            int to = EcmpLog.bottleneckReceiver(c, r.network().topology(), r.series());
            if (to < 0) {
                return;
            }
            receivers.add(r.network().topology().nodeName(to));
            starved |= c.starvedPackets() > 0;
        }
        line(b, "            %s", EcmpLog.oneReceiverNote(receivers, starved));
    }

    /**
     * What an ECMP wait is not: the flow's other packets kept moving meanwhile, so a flow can wait longer than it lost
     * (an audit found 68 of 340 such flows in one run).
     */
    static final String WAIT_NOT_LOSS = "a wait is time in that queue, not time the flow lost";

    /**
     * The reorder line of a run whose QPs all place in order (go-back-N, {@code nic.ooo} false): the receivers discarded
     * each packet that came ahead of its turn and NAKed the first of a gap, and the senders went back. What caused it is
     * said only when it is known: with nothing dropped, no packet a NAK asked for again was lost, so each NAK answered
     * packets arriving out of the order their QP sent them in (reordering); with drops on a fabric where every QP's
     * packets keep to one path and one queue per hop ({@code onePathInOrder}), nothing can overtake, so every packet
     * out of sequence came after a loss; with drops on a fabric that may split a QP (spraying, adaptive routing,
     * flowlets, plane spraying, a re-hash after a link event), the counters do not tell.
     */
    static String goBackNReorder(FabricTotals t, boolean onePathInOrder) {
        String cause = t.naksSent() == 0 ? ""
                : t.packetsDropped() == 0 ? String.format(Locale.ROOT, "   nothing was dropped: the %s NAK%s answered"
                        + " packets arriving out of the order their QP sent them in (reordering, not loss)",
                        group(t.naksSent()), t.naksSent() == 1 ? "" : "s")
                : onePathInOrder ? String.format(Locale.ROOT, "   every QP kept to one path (per-flow ECMP, no link"
                        + " events), where nothing overtakes: each packet out of sequence came after one of the %s"
                        + " dropped (loss, not reordering)", group(t.packetsDropped()))
                : String.format(Locale.ROOT, "   %s packets were dropped, and a QP's packets may take more than one path"
                        + " here: the counters do not tell how many arrivals out of sequence came after a loss and how"
                        + " many were overtaken (reordering)", group(t.packetsDropped()));
        String sent = t.dataBytesSent() > t.deliveredBytes() && t.deliveredBytes() > 0
                ? String.format(Locale.ROOT, "   %s payload bytes sent to deliver %s (%.2fx)", group(t.dataBytesSent()),
                        group(t.deliveredBytes()), (double) t.dataBytesSent() / t.deliveredBytes())
                : "";
        return String.format(Locale.ROOT, "reorder     %s out of sequence (discarded: go-back-N, nic.ooo false)   %s"
                + " duplicates%s%s", group(t.outOfSequence()), group(t.duplicateRequests()), cause, sent);
    }

    /**
     * Whether every QP's data packets keep to one path, one queue per hop, in the order sent: every switch hashes per
     * flow, every QP keeps to one plane, and no link event re-hashes a QP mid-flow.
     */
    private static boolean keepsOnePathInOrder(Network network) {
        if (network.linkEventCount() > 0) {
            return false;
        }
        Topology t = network.topology();
        if (t.planes() > 1 && t.planeSelection() == PlaneSelection.SPRAY) {
            return false;
        }
        for (int i = 0; i < network.switchCount(); i++) {
            Switch sw = network.switchAt(i);
            if (sw.loadBalancing() == LoadBalancing.ECMP) {
                continue;
            }
            // Spraying, adaptive routing or flowlets split a QP only where the switch has a choice.
            for (int h = 0; h < t.hostCount(); h++) {
                if (sw.candidates(h).length > 1) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether some QP places out of order (both its RNICs have {@code nic.ooo}): the reorder line is then told. */
    private static boolean anySelectiveRepeat(Network network) {
        for (int q = 0; q < network.queuePairs().size(); q++) {
            if (network.queuePairs().get(q).selectiveRepeat()) {
                return true;
            }
        }
        return false;
    }

    /** {@code 13,338 ECN marks (per hop; 5,132 packets arrived marked)}, or {@code 0 ECN marks}. */
    static String ecnMarks(FabricTotals t) {
        if (t.ecnMarked() == 0) {
            return "0 ECN marks";
        }
        return String.format(Locale.ROOT, "%s ECN %s (per hop; %s %s arrived marked)", group(t.ecnMarked()),
                t.ecnMarked() == 1 ? "mark" : "marks", group(t.ecnMarkedArrived()),
                t.ecnMarkedArrived() == 1 ? "packet" : "packets");
    }

    /** InfiniBand: FECN/BECN instead of ECN/CNP, credit stalls instead of pauses, and a line per busy lane. */
    private static void infiniband(StringBuilder b, FabricTotals t, VirtualLanes lanes) {
        // Marks are counted where they are made: a packet marked at two switches counts twice. The destination answers
        // each marked packet it receives with one BECN (ib-cc, Annex A10), which travels on the BECNs' own lane.
        line(b, "congestion  %s FECN marks (a packet marked at two switches counts twice)   %s BECNs sent (one per"
                + " marked packet received)   %s handled   %s CCT index raises", group(t.ecnMarked()),
                group(t.cnpSent()), group(t.cnpHandled()), group(t.rateCuts()));
        line(b, "credits     %s us credit stall in all (ports and HCAs)   %s flow-control packets",
                us(lanes.creditStallPs()), group(lanes.flowControlPackets()));
        for (var l : lanes.lanes()) {
            line(b, "  VL%d       %s us stall   %s FECN marks   %s BECNs answering its data   peak input buffer %s bytes"
                    + "   %s packets forwarded",
                    l.vl(), us(l.creditStallPs()), group(l.fecnMarked()), group(l.becnReceived()),
                    group(l.peakInputBufferBytes()), group(l.packetsForwarded()));
        }
    }

    /** Spells of a pause cycle told one by one; more are counted. */
    static final int SPELLS_SHOWN = 3;

    /**
     * Every cycle of pauses the PFC log found, and when it held (all its ports paused together): a deadlock that ended
     * the run, one a watchdog broke, or one in a part of the fabric while data moved elsewhere.
     */
    private static void pauseCycles(StringBuilder b, RunResult r) {
        PfcLog log = r.pfcLog();
        for (int c = 0; c < log.cycleCount(); c++) {
            line(b, "%s %s: %s", c == 0 ? "PFC cycle  " : "           ",
                    log.rootName(PfcLog.ROOT_PAUSE_CYCLE, c, -1), spells(log.cycleSpells(c), r.simulatedPs()));
        }
    }

    /** When a cycle held: {@code all its ports paused together from 35.934 us to the end of the run (2039.523 us)}. */
    public static String spells(long[] spells, long endPs) {
        int n = spells.length / 2;
        long total = 0;
        for (int k = 0; k < n; k++) {
            total += (spells[2 * k + 1] < 0 ? endPs : spells[2 * k + 1]) - spells[2 * k];
        }
        StringBuilder s = new StringBuilder("all its ports paused together ");
        int shown = Numbers.shown(n, SPELLS_SHOWN);
        for (int k = 0; k < shown; k++) {
            s.append(k == 0 ? "" : k == shown - 1 && shown == n ? " and " : ", ").append("from ").append(us(spells[2 * k]))
                    .append(spells[2 * k + 1] < 0 ? " us to the end of the run (" + us(endPs) + " us)"
                            : " to " + us(spells[2 * k + 1]) + " us");
        }
        if (n > shown) {
            s.append(", and ").append(n - shown).append(" spells more");
        }
        if (n > 1) {
            s.append(" (").append(us(total)).append(" us in all)");
        }
        return s.toString();
    }

    /** Who paused whom first, in time order, with the hop count back from where the pause started. */
    private static void pauseTree(StringBuilder b, RunResult r) {
        var topo = r.network().topology();
        var edges = r.pfcLog().propagation(r.network().simulator().nowPs());
        if (edges.isEmpty()) {
            return;
        }
        // The pause propagation tree (the report's name for it): hop 0 where a device paused for its own congestion.
        line(b, "PFC tree    first XOFF       device   paused   prio  hop   paused in all");
        // Twelve told, or all thirteen: a single one left is told rather than counted.
        int max = Numbers.shown(edges.size(), 12);
        int shown = 0;
        for (var e : edges) {
            if (shown++ == max) {
                line(b, "            (%d of %d shown; summary.json pfc_propagation, pfc.csv)", max, edges.size());
                break;
            }
            line(b, "            %10s us  %-8s %-8s %4d  %3d   %s us", us(e.firstXoffPs()), topo.nodeName(e.device()),
                    topo.nodeName(e.peer()), e.priority(), e.hop(), us(e.pausedPs()));
        }
    }

    private static String ms(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e9);
    }

    /**
     * What flows.csv says held a job's transfer's flow up, where it says anything: its waits behind pauses (or for
     * InfiniBand credits), behind other flows where ECMP hashed it beside an idle port, its rate held back and the
     * wait behind its own QP's earlier messages, each as flows.csv has it ({@code ; its flow waited 120.500 us behind
     * pauses and its rate held it back 40.000 us (flows.csv paused_wait_us, rate_held_us)}).
     */
    static String transferWaits(RunResult r, int flow) {
        List<String> parts = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        FlowRecord f = r.flows().get(flow);
        boolean ib = r.pfcLog() == null && r.creditLog() != null;
        long paused = r.pfcLog() != null ? r.pfcLog().pausedWaitPs(flow)
                : ib && r.creditLog().flowWaits() != null ? r.creditLog().flowWaits().waitPs(flow) : 0;
        if (paused > 0) {
            parts.add("waited " + us(paused) + " us " + (ib ? "for InfiniBand credits" : "behind pauses"));
            columns.add(ib ? "credit_wait_us" : "paused_wait_us");
        }
        long ecmp = r.ecmpLog() != null ? r.ecmpLog().waitPs(flow) : 0;
        if (ecmp > 0) {
            parts.add("waited " + us(ecmp) + " us behind other flows where ECMP hashed it beside an idle port");
            columns.add("ecmp_wait_us");
        }
        if (f.rateHeldPs() > 0) {
            parts.add("its rate held it back " + us(f.rateHeldPs()) + " us");
            columns.add("rate_held_us");
        }
        if (f.qpWaitPs() > 0) {
            parts.add("it waited " + us(f.qpWaitPs()) + " us behind its own QP's earlier messages");
            columns.add("qp_wait_us");
        }
        if (parts.isEmpty()) {
            return "";
        }
        String said = parts.size() == 1 ? parts.get(0)
                : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
        return "; " + (said.startsWith("waited") ? "its flow " : "") + said + " (flows.csv " + String.join(", ", columns)
                + ")";
    }

    /**
     * What was under way beside a job's transfer from its post to its delivery, as {@link #beside} tells a call's: the
     * same job's calls and other transfers on its two RNICs, its other transfers through the links between switches
     * its data crossed, the workload's other items on its RNICs and on those links; each only when it overlapped more
     * than a tenth of the transfer's time.
     */
    static String besideTransfer(TransferRecord x) {
        List<String> parts = besideParts(x.fctPs(), -1, x.job(), "call", "calls", "other transfer", "other transfers",
                x.jobOnLinks(), x.beside(), x.onLinks(), "its data");
        return parts.isEmpty() ? "" : "; the idle-fabric time is the transfer alone, and " + String.join(", and ", parts);
    }

    /**
     * What ran on a call's RNICs while it ran: the same job's other calls, and the workload's other items (background
     * traffic, another job). Its ideal time is the call alone, and it shares those RNICs with them on any network, so
     * its ratio to the ideal is not all the fabric's doing. Likewise the other items whose data left by the call's
     * switch ports towards other switches while its own did: those links carried both (packet level). Not for a
     * brush: what overlapped a tenth of it or less (a neighbour's short AllGather at the edge of a long ReduceScatter)
     * does not explain its ratio, unless the call lost more than a fiftieth of its time against its ideal and the
     * overlap was at least half of that loss (a 4-GPU AllReduce over NVLink lost 26.7 us of 459.3 to another item's
     * PXN hops over its NVLink, which overlapped it 32.1 us, a fourteenth of it, and nothing said so).
     */
    static String beside(CollectiveRecord c) {
        long lost = c.completed() && c.idealTimePs() > 0 ? c.timePs() - c.idealTimePs() : -1;
        List<String> parts = besideParts(c.timePs(), lost, c.concurrent(), "other call", "other calls", "transfer",
                "transfers", CollectiveRecord.OnLinks.NONE, c.beside(), c.onLinks(), "its flows' data");
        return parts.isEmpty() ? "" : "; the ideal is the call alone, and " + String.join(", and ", parts);
    }

    /**
     * The clauses of a call's or a transfer's "beside" sentence, of what overlapped more than a tenth of its
     * {@code timePs}: the job's calls ({@code call}, {@code calls}: their words) and transfers on its RNICs, its
     * transfers through its links ({@code jobLinks}), the workload's other items on its RNICs ({@code b}) and links
     * ({@code l}), whose data crossed what {@code itsData} names.
     */
    private static List<String> besideParts(long timePs, long lostPs, CollectiveRecord.Concurrent k, String call,
            String calls, String transfer, String transfers, CollectiveRecord.OnLinks jobLinks,
            CollectiveRecord.Beside b, CollectiveRecord.OnLinks l, String itsData) {
        List<String> parts = new ArrayList<>();
        LongPredicate material = overlap -> overlap * 10 > timePs
                || lostPs * 50 > timePs && overlap * 2 >= lostPs;
        if (k.calls() > 0 && material.test(k.overlapPs())) {
            parts.add(String.format(Locale.ROOT, "%s of this job %s under way on its RNICs meanwhile (%s for %s us of"
                    + " it)", Numbers.count(k.calls(), call, calls), k.calls() == 1 ? "was" : "were", k.longest(),
                    us(k.overlapPs())));
        }
        if (k.transfers() > 0 && material.test(k.transferOverlapPs())) {
            parts.add(String.format(Locale.ROOT, "%s of this job %s under way on its RNICs meanwhile (%s for %s us of"
                    + " it)", Numbers.count(k.transfers(), transfer, transfers), k.transfers() == 1 ? "was" : "were",
                    k.longestTransfer(), us(k.transferOverlapPs())));
        }
        if (jobLinks.items() > 0 && material.test(jobLinks.overlapPs())) {
            parts.add(String.format(Locale.ROOT, "%s of this job sent data through links between switches that %s"
                    + " crossed, at the same time (%s for %s us of it, at %s)", Numbers.count(jobLinks.items(),
                            transfer, transfers), itsData, jobLinks.longest(), us(jobLinks.overlapPs()),
                    jobLinks.at()));
        }
        if (b.items() > 0 && material.test(b.overlapPs())) {
            parts.add(String.format(Locale.ROOT, "%s of the workload had %s meanwhile (%s for %s us of it)",
                    Numbers.count(b.items(), "other item", "other items"), b.nvlink()
                            ? "transfers over its GPUs' NVLink" : "flows on its RNICs", b.longest(),
                    us(b.overlapPs())));
        }
        if (l.items() > 0 && material.test(l.overlapPs())) {
            parts.add(String.format(Locale.ROOT, "%s of the workload sent data through links between switches that %s"
                    + " crossed, at the same time (%s for %s us of it, most at %s)", Numbers.count(l.items(),
                            "other item", "other items"), itsData, l.longest(), us(l.overlapPs()), l.at()));
        }
        return parts;
    }

    /**
     * The job's call after its warm-up whose members entered it furthest apart beyond their entries' bounds on the
     * ideal network (a pipeline's stages enter a call apart by design, and their bounds are as far apart), when that
     * excess is at least a twentieth of the iteration: a call's time counts from its last member's entry, so a late
     * member's wait shows in the others' GPU view (and can be all of the network wait while no call is slow: a
     * warm-up whose slow call ended on its ranks far apart leaves them out of step), not in any call's time. Said as
     * measured, with no cause.
     */
    private static void entrySpread(StringBuilder b, RunResult r, JobRecord j) {
        CollectiveRecord widest = null;
        for (var c : r.collectives()) {
            if (c.job().equals(j.job()) && !c.warmUp(r.jobs()) && c.entrySpreadPs() > 0
                    && (widest == null || c.entrySpreadBeyondIdealPs() > widest.entrySpreadBeyondIdealPs())) {
                widest = c;
            }
        }
        if (widest == null || Double.isNaN(j.iterationUs())) {
            return;
        }
        double material = j.iterationUs() * 1e6 / 20;
        if (widest.entrySpreadBeyondIdealPs() < material) {
            CollectiveRecord.LateEntry e = widest.lateEntry();
            // A straggler: its way in ran through its own compute alone, from its part of the previous call or the
            // job's start. A pipeline's stage entering after a transfer from another stage is apart by design.
            if (widest.entrySpreadPs() >= material && e.rank() >= 0 && e.computePs() > 0
                    && (e.after().isEmpty() || e.ownPart())) {
                straggler(b, widest);
            }
            return;
        }
        line(b, "  entry     %s%s%s: its ranks entered it %s ms apart, their entries' bounds on the ideal network %s ms;"
                + " a call's time counts from its last rank's entry, so the others' wait is in their exposed"
                + " communication and idle time, not in the call's (collectives.csv entry_spread_us)", widest.name(),
                widest.iteration() < 0 ? "" : " in iteration " + widest.iteration(), j.warmup() > 0
                        && widest.iteration() == j.warmup() ? " (the first after the warm-up)" : "",
                ms(widest.entrySpreadPs()), ms(Math.max(0, widest.idealEntrySpreadPs())));
        String late = lateEntry(r, widest);
        if (!late.isEmpty()) {
            line(b, "            %s", late);
        }
    }

    /**
     * A call whose ranks entered it a twentieth of the iteration apart or more, as far apart on the ideal network (less
     * a twentieth), its last rank's way in its own compute alone ({@link CollectiveRecord.LateEntry}): a straggler,
     * which the job's own work set apart, not the network.
     */
    private static void straggler(StringBuilder b, CollectiveRecord c) {
        CollectiveRecord.LateEntry e = c.lateEntry();
        line(b, "  entry     %s%s: its ranks entered it %s ms apart, and %s ms apart on the ideal network too: the"
                + " job's own work set them apart, not the network (collectives.csv entry_spread_us,"
                + " ideal_entry_spread_us)", c.name(), c.iteration() < 0 ? "" : " in iteration " + c.iteration(),
                ms(c.entrySpreadPs()), ms(Math.max(0, c.idealEntrySpreadPs())));
        line(b, "            rank %d entered it last, %s ms after rank %d (the first rank in), waiting on its own"
                + " compute: %s ms of it since %s", e.rank(), ms(c.entrySpreadPs()), e.firstRank(), ms(e.computePs()),
                e.after().isEmpty() ? "the job's start" : "its part of " + e.after()
                        + (e.afterIteration() >= 0 ? " in iteration " + e.afterIteration() : "") + " ended");
    }

    /**
     * What the call's last rank waited for before it entered, as the run's dependencies have it (empty when not
     * found): "rank 3 entered it last, when its part of train/grads/dp in iteration 0 ended, 0.324 ms after rank 2's
     * part (the first rank in); that call took x2.56 its ideal, in the warm-up".
     */
    private static String lateEntry(RunResult r, CollectiveRecord c) {
        CollectiveRecord.LateEntry e = c.lateEntry();
        if (e.rank() < 0 || e.after().isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder("rank " + e.rank() + " entered it last, when ");
        s.append(e.ownPart() ? "its part of " : "a step of ").append(e.after());
        if (e.afterIteration() >= 0) {
            s.append(" in iteration ").append(e.afterIteration());
        }
        s.append(" ended");
        if (e.behindFirstPs() >= 0) {
            s.append(", ").append(ms(e.behindFirstPs())).append(" ms after rank ").append(e.firstRank())
                    .append("'s part (the first rank in)");
        }
        for (var before : r.collectives()) {
            if (before.job().equals(c.job()) && before.name().equals(e.after())
                    && before.iteration() == e.afterIteration() && before.completed()) {
                double slowdown = before.networkSlowdown();
                if (!Double.isNaN(slowdown) && slowdown > SLOWEST_ABOVE) {
                    s.append("; that call took ").append(String.format(Locale.ROOT, "x%.2f", slowdown))
                            .append(" its ideal").append(before.warmUp(r.jobs()) ? ", in the warm-up" : "");
                }
                break;
            }
        }
        return s.toString();
    }

    /**
     * The workload's other items that had flows on a job's ranks' RNICs while it ran: the ideal is the job alone, so
     * that sharing is part of what its GPUs waited on the network (docs/flow-model.md).
     */
    static String besideJob(JobRecord j) {
        CollectiveRecord.Beside b = j.beside();
        if (b.items() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "; the ideal is the job alone, and %s of the workload had flows on its ranks'"
                + " RNICs meanwhile (%s for %s ms of its %s ms)", Numbers.count(b.items(), "other item", "other items"),
                b.longest(), ms(b.overlapPs()), ms(j.jctPs()));
    }

    /**
     * The workload's other items that had flows on the RNICs of a service's requests (the hosts of their flows) while
     * it served them: the ideal is the service alone, so that sharing is part of its requests' network wait
     * (docs/flow-model.md).
     */
    static String besideService(InferenceTables.ServiceStats s) {
        CollectiveRecord.Beside b = s.record().beside();
        if (b.items() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "; the ideal is the service alone, and %s of the workload had flows on its"
                + " requests' RNICs meanwhile (%s for %s ms of its %s ms)", Numbers.count(b.items(), "other item",
                "other items"), b.longest(), ms(b.overlapPs()), ms(s.record().spanPs()));
    }

    /**
     * Each QP that ran out of retries while links were down, with what they did to it (the fabric's record at the
     * failure); a few are told, summary.json has them all.
     */
    /** Whether the summary compares something with the ideal network: a job, a collective or an inference service. */
    static boolean reportsIdeal(RunResult r) {
        return !r.jobs().isEmpty() || !r.services().isEmpty()
                || r.collectives().stream().anyMatch(c -> c.job().isEmpty() && c.idealTimePs() > 0);
    }

    /** Failed flows named on a QP's line; the rest are counted (summary.json retry_failures lists them). */
    private static final int FLOWS_SHOWN = 8;

    private static void retryFailures(StringBuilder b, RunResult r) {
        List<RetryFailure> failures = r.packetLevel() ? r.network().retryFailures() : List.of();
        int shown = Numbers.shown(failures.size(), VICTIMS_SHOWN);
        for (int i = 0; i < shown; i++) {
            RetryFailure f = failures.get(i);
            List<Integer> flows = failedFlowsOf(r, f.queuePair());
            line(b, "            QP %d (%s, h%d->h%d) ran out of retries at %s us: %s", f.queuePair(),
                    flows.isEmpty() ? "no flow" : (flows.size() == 1 ? "flow " : "flows ")
                            + String.join(", ", flows.subList(0, Numbers.shown(flows.size(), FLOWS_SHOWN)).stream()
                                    .map(String::valueOf).toList())
                            + (flows.size() > Numbers.shown(flows.size(), FLOWS_SHOWN)
                                    ? " and " + (flows.size() - FLOWS_SHOWN) + " more" : ""),
                    f.src(), f.dst(), us(f.atPs()), RetryFailureText.why(f, r.network().topology()));
        }
        if (shown < failures.size()) {
            line(b, "            ... and %d more QPs that ran out of retries with links down (summary.json"
                    + " retry_failures)", failures.size() - shown);
        }
    }

    /** The failed flows a QP carried, ascending. */
    static List<Integer> failedFlowsOf(RunResult r, int queuePair) {
        return r.flows().stream().filter(f -> f.failed() && f.queuePair() == queuePair).map(FlowRecord::id).sorted()
                .toList();
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / (double) Time.PS_PER_US);
    }

    private static String group(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    private static void line(StringBuilder b, String format, Object... args) {
        b.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    /** Why flows are unfinished, as the run's stop reason says: the stop time, nothing left to happen, or a stall. */
    /** " (towards h7)": the node a port ({@code leaf1/p3}) faces, as the other lines name ports. */
    private static String towards(RunResult r, String port) {
        var topo = r.network().topology();
        int slash = port.lastIndexOf("/p");
        int node = slash < 0 ? -1 : topo.nodeByName(port.substring(0, slash));
        if (node < 0) {
            return "";
        }
        int index = Integer.parseInt(port.substring(slash + 2));
        return index < topo.portCount(node) ? " (towards " + topo.nodeName(topo.peer(node, index).node()) + ")" : "";
    }

    /** " (3 of them not posted yet)": the unfinished flows whose start the run never reached. */
    private static String notPosted(RunResult r, boolean aggregated) {
        if (aggregated) {
            return "";
        }
        long n = 0;
        for (FlowRecord f : r.flows()) {
            if (f.unfinished() && f.startPs() >= r.simulatedPs()) {
                n++;
            }
        }
        return n == 0 ? "" : " (" + n + " of them not posted yet: " + (n == 1 ? "its start is" : "their starts are")
                + " after the run's end)";
    }

    /**
     * "; 75 more were never posted: what they waited for failed": the flows a failure kept from being posted, by what
     * the driver recorded reached each (the dependency it waited for, or its own QP failing before its turn).
     */
    static String notPostedWhy(long waitedOnFailure, long queuePairFailedFirst) {
        long n = waitedOnFailure + queuePairFailedFirst;
        if (n == 0) {
            return "";
        }
        String waited = waitedOnFailure == 1 ? "what it waited for failed" : "what they waited for failed";
        String first = queuePairFailedFirst == 1 ? "its QP ran out of retries before its turn"
                : "their QPs ran out of retries before their turn";
        String why = queuePairFailedFirst == 0 ? waited : waitedOnFailure == 0 ? first
                : waitedOnFailure + " because what they waited for failed, " + queuePairFailedFirst
                        + " because their QP ran out of retries before their turn";
        return "; " + n + " more " + (n == 1 ? "was" : "were") + " never posted: " + why;
    }

    private static String unfinishedWhy(String stopReason) {
        return switch (stopReason) {
            case "stop-at" -> " unfinished at stop time";
            case "no-events" -> " unfinished when nothing was left to happen (no event pending: stop_reason no-events)";
            case "deadlock" -> " unfinished, held by the deadlock below";
            case "stalled" -> " unfinished, stalled (below)";
            default -> " unfinished when the run ended (stop_reason " + stopReason + ")";
        };
    }
}
