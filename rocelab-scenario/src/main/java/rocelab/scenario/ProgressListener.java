package rocelab.scenario;

import java.util.List;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;

/**
 * Hears about a long run's progress between batches of events (never from the per-event hot path). Engines of either
 * level (packets, or flows as fluids) report the same {@link RunProgress}.
 */
public interface ProgressListener {
    ProgressListener NONE = progress -> {};

    void onProgress(RunProgress progress);

    /**
     * The run has ended a phase of its own after the event loop ({@code loop}: the events; then the records made
     * from the run alone, the wait for the ideal figures, and the rest), for {@code rocelab run --timing}. Called a few
     * times per run, from the thread that runs it.
     */
    default void onPhase(String name) {}

    /**
     * The run's flow records are made, before its ideal figures are waited for: {@code flows} (as the result will hold
     * them, not to be changed), the PFC log ({@code null}: PFC off), the credit log ({@code null}: not an InfiniBand
     * packet-level run), the ECMP log ({@code null}: no switch hashes
     * among equal-cost ports), the simulated end and whether the run is packet level, all that flows.csv needs, so a
     * listener may start writing it while the figures are still being made. Called at most once per run, from the
     * thread that runs it.
     */
    default void onFlowRecords(List<FlowRecord> flows,
            PfcLog pfcLog, CreditLog creditLog, EcmpLog ecmpLog, long endPs,
            boolean packetLevel) {}
}
