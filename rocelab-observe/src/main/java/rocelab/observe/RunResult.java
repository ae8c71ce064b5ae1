package rocelab.observe;

import java.util.List;
import rocelab.fabric.network.Network;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.FlowRecordList;
import rocelab.observe.flow.FlowsBySize;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.inference.ServiceRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.JobTransferRecord;
import rocelab.observe.job.RankRecord;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.observe.trace.GpuTimeline;

/**
 * Everything a finished run produced, ready for the writers.
 *
 * @param simulatedPs simulated time at which the run ended (the last completion, or the stop time)
 * @param scenarioHash SHA-256 of the resolved scenario
 * @param finished whether every flow completed or failed before the run ended
 * @param stopReason {@code completed} (every flow completed), {@code some-failed} (every flow ended, some by
 *     failing), {@code all-failed} (every flow failed, none completed), {@code stop-at} (the scenario's stop time),
 *     {@code stalled} (no data moved for a long time although flows remain), {@code deadlock} (a stall with a cycle
 *     of paused queues) or {@code no-events}; see {@link #endedReason}
 * @param deadlockCycle the paused queues of the deadlock cycle, in order (empty unless deadlocked)
 * @param deadlockSincePs when data last moved before the deadlock was found (-1 unless deadlocked)
 * @param series the rate and queue time series, or null when sampling was off
 * @param pfcLog every PFC frame sent, or null when PFC is off
 * @param creditLog every wait for InfiniBand credits with its root, or null unless an InfiniBand packet-level run
 * @param ecmpLog every ECMP collision and the waits behind it, or null unless a packet-level run whose switches hash
 *     among equal-cost ports
 * @param jobs each AI job, seen from its GPUs
 * @param ranks each rank of each job
 * @param timeline each rank's last iteration: compute steps and its own data moving
 * @param requests each request of each inference service
 * @param llmCalls each LLM call of those requests
 * @param services each inference service of the scenario, whether or not any request arrived
 * @param model how the fabric was modelled: {@code packet}, {@code flow} (max-min fair fluids over the links of
 *     each flow's ECMP path) or {@code ideal} (the ideal network alone); only {@code packet} has queues, ECN marks,
 *     pauses, drops and packet counters, and the other models leave them out rather than report zeros
 * @param gpuTimeline the GPUs' timelines for timeline.json, or null without jobs and inference services
 * @param threadsNote why a run that asked for several threads ran on fewer (null: it did not ask, or it got them)
 * @param notModelled what a flow-level or ideal run leaves out ({@link #NOT_MODELLED}, and what else this scenario
 *     has that the model ignores); null at packet level
 * @param flowsAggregated the flows aggregated (a streamed run: {@code flows} is then empty and flows_aggregated.csv
 *     replaces flows.csv), or null when every flow has its record
 * @param nvlinkTransfers how many of the workload's transfers (traffic items' flows, jobs' and collectives' messages)
 *     had their two ends on GPUs of one server and went over NVLink, not the network: they are not flows
 * @param nvlinkBytes the bytes of those transfers
 * @param transfers every point-to-point transfer of the jobs (transfers.csv), in the jobs' order
 */
public record RunResult(
        String scenario,
        long seed,
        String mode,
        String version,
        String scenarioHash,
        long simulatedPs,
        double wallSeconds,
        long events,
        boolean finished,
        String stopReason,
        List<String> deadlockCycle,
        long deadlockSincePs,
        List<FlowRecord> flows,
        List<CollectiveRecord> collectives,
        FabricTotals totals,
        Network network,
        TimeSeriesSampler series,
        PfcLog pfcLog,
        CreditLog creditLog,
        EcmpLog ecmpLog,
        List<JobRecord> jobs,
        List<RankRecord> ranks,
        List<RequestRecord> requests,
        List<CallRecord> llmCalls,
        List<ServiceRecord> services,
        List<TimelineRecord> timeline,
        String model,
        GpuTimeline gpuTimeline,
        String threadsNote,
        FlowsBySize flowsAggregated,
        String notModelled,
        long nvlinkTransfers,
        long nvlinkBytes,
        List<JobTransferRecord> transfers) {

    public RunResult {
        requests = List.copyOf(requests);
        llmCalls = List.copyOf(llmCalls);
        services = List.copyOf(services);
        jobs = List.copyOf(jobs);
        timeline = List.copyOf(timeline);
        ranks = List.copyOf(ranks);
        transfers = List.copyOf(transfers);
        // A view over a finished run's arrays is kept as it is: copying made an object per flow (millions).
        flows = flows instanceof FlowRecordList ? flows : List.copyOf(flows);
        collectives = List.copyOf(collectives);
        deadlockCycle = List.copyOf(deadlockCycle);
    }

    /**
     * What a flow-level model ignores of a scenario whose flows are in several traffic classes: the packet level
     * serves the classes of a port by the switch's scheduler, the flow level shares the link among flows.
     */
    public static final String SCHEDULER_NOT_MODELLED = "; flows of every traffic class share a link max-min fairly:"
            + " the switches' scheduler (DWRR weights, strict priority) acts only at packet level";

    /**
     * What a flow-level or ideal run leaves out of a scenario with pause-storm faults: a storm is an RNIC sending PFC
     * pauses, which only the packet level has, so the run's flows never meet it.
     */
    public static String faultsNotModelled(int faults) {
        return "; the scenario's " + (faults == 1 ? "pause-storm fault (faults:) is" : faults
                + " pause-storm faults (faults:) are") + " left out: a storm is PFC pauses, and this run's flows never"
                + " meet it (--model packet runs it)";
    }

    /** What the ideal network leaves out of a scenario with link events: its links never go down. */
    public static String linkEventsNotModelled(int events) {
        return "; the scenario's " + (events == 1 ? "link event is" : events + " link events are") + " left out: the"
                + " ideal network's links never go down";
    }

    /**
     * What the ideal network's figures are (--ideal): each task's own lower bound, not one schedule. A flow of an
     * incast may be first at its receiver, so its bound is its time alone, while the receiver's port bounds the last
     * of them; read together, the flows' times would have a port carry more than its rate. A flow still waits for its
     * own QP's earlier messages (moe-alltoall's chunks: FCTs of 23-26 us against 6.8 us alone).
     */
    public static final String IDEAL_BOUNDS = "; every time is a lower bound of its own, not one schedule: each flow's"
            + " FCT is the least it could take even if it went first (after its own QP's earlier messages, which a QP"
            + " sends in post order), so flows sharing an RNIC port may each show their time alone while the run's end"
            + " bounds the port's work for all of them";

    /** What no model but the packet level has (flow level on RoCE), for outputs that leave those sections out. */
    public static final String NOT_MODELLED = notModelled(false, false);

    /**
     * What no model but the packet level has, in the words of the fabric's mode ({@code infiniband}: credits and
     * FECN/BECN, not ECN and PFC), and of the model: the flow level shares a link among the flows ECMP hashes onto it
     * (the same hash as the packet level) but has no queue where they meet; the ideal network ({@code ideal}) has no
     * switch link shared at all, so sharing costs nothing there, while each message still crosses its links at their
     * rates (an audit's uplinks at 25 Gb/s under 100 Gb/s RNICs made the ideal 3.4x the healthy fabric's, while the
     * note said oversubscription cost nothing).
     */
    public static String notModelled(boolean infiniband, boolean ideal) {
        return "queues (a flow's last ACK comes back in a fixed latency, never behind other flows' data), "
                + (infiniband ? "waits for credits, FECN and BECN marks" : "ECN marks, CNPs, PFC pauses")
                + ", rate cuts, deadlocks, victims, drops, retransmissions and packet counters exist only at packet"
                + " level (--model packet)" + (ideal
                        ? "; the fabric between the RNICs is non-blocking: no switch link is shared (each message"
                                + " crosses the best of its equal-cost paths as if alone, at the slowest of their"
                                + " links), so sharing a link costs nothing here, neither an ECMP collision's nor an"
                                + " oversubscribed tier's, but every link's own rate and delay are the fabric's: a"
                                + " slow link (or a tier slower than the RNICs) holds each message over it to its"
                                + " rate here as in the run"
                        : "; flows that ECMP hashes onto one link share it, but the queue where they meet is not"
                                + " modelled");
    }

    /**
     * What the flow level leaves out of a fabric whose switches or RNICs send one QP's packets down several paths
     * (spray, adaptive, flowlet, plane spraying): it splits a flow over them without reordering it.
     */
    public static final String REORDERING_NOT_MODELLED = "; nor is reordering: a flow split over several paths"
            + " arrives in order here, while at packet level an RNIC that places in order only (nic.ooo false) answers"
            + " each out-of-order packet with a NAK and a go-back-N retransmission";

    /**
     * The stop reason of a run in which every flow ended, completed or failed: {@code completed} when none failed,
     * {@code all-failed} when some failed and none completed, {@code some-failed} otherwise. A run whose flows all
     * failed (every link to their destination down, retries exhausted) ended, but it did not complete.
     */
    public static String endedReason(long completed, long failed) {
        return failed == 0 ? "completed" : completed == 0 ? "all-failed" : "some-failed";
    }

    /** Whether the fabric was simulated packet by packet (queues, marks, pauses and counters are meaningful). */
    public boolean packetLevel() {
        return "packet".equals(model);
    }

    /** Whether the flows are aggregated rather than listed one by one (a streamed run). */
    public boolean flowsAreAggregated() {
        return flowsAggregated != null;
    }

    public double eventsPerSecond() {
        return wallSeconds > 0 ? events / wallSeconds : 0;
    }
}
