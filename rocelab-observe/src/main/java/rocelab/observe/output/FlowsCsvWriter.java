package rocelab.observe.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import rocelab.observe.RunResult;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;

/**
 * flows.csv written on a thread of its own. A run with millions of flows spends seconds on this one file, which
 * needs only the run's flow records, not its ideal figures: so the command starts it as soon as the records exist
 * ({@link #start}), while the ideal network's bound is still being made on the other core, and {@link RunWriter}
 * writes the other files and waits for it ({@link #await}) before summary.json, which stays the last file.
 */
public final class FlowsCsvWriter implements AutoCloseable {
    private final List<FlowRecord> flows;
    private final PfcLog pfcLog;
    private final CreditLog creditLog;
    private final EcmpLog ecmpLog;
    private final long endPs;
    private final boolean packetLevel;
    private final FileOnItsOwn file;

    private FlowsCsvWriter(Path dir, List<FlowRecord> flows, PfcLog pfcLog, CreditLog creditLog, EcmpLog ecmpLog,
            long endPs, boolean packetLevel) {
        this.flows = flows;
        this.pfcLog = pfcLog;
        this.creditLog = creditLog;
        this.ecmpLog = ecmpLog;
        this.endPs = endPs;
        this.packetLevel = packetLevel;
        this.file = FileOnItsOwn.start(dir.resolve("flows.csv"), out -> RunWriter.flowsCsv(out, flows, pfcLog,
                creditLog, ecmpLog, endPs, packetLevel));
    }

    /**
     * Starts writing {@code dir}/flows.csv from {@code flows} (not to be changed from now on) and the run's PFC,
     * credit and ECMP logs (null: none), as {@link RunWriter} would from a result with these records, end time and model.
     */
    public static FlowsCsvWriter start(Path dir, List<FlowRecord> flows, PfcLog pfcLog, CreditLog creditLog,
            EcmpLog ecmpLog, long endPs, boolean packetLevel) {
        return new FlowsCsvWriter(dir, flows, pfcLog, creditLog, ecmpLog, endPs, packetLevel);
    }

    /**
     * Whether this writes the flows.csv of {@code result}: the same records, PFC log, end and model. When not (a
     * result that is not the run it was started for), {@link RunWriter} writes the file itself.
     */
    boolean writes(RunResult result) {
        return result.flows() == flows && result.pfcLog() == pfcLog && result.creditLog() == creditLog
                && result.ecmpLog() == ecmpLog
                && result.simulatedPs() == endPs
                && result.packetLevel() == packetLevel && !result.flowsAreAggregated();
    }

    /** Waits until flows.csv is written, and throws what writing it threw. */
    public void await() throws IOException {
        file.await();
    }

    /**
     * Waits for the thread without throwing, so that nothing writes into the folder once the caller has closed it
     * (an error elsewhere, after which the folder is discarded).
     */
    @Override
    public void close() {
        file.close();
    }
}
