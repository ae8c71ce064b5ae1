package rocelab.scenario;

import rocelab.engine.PartitionedSimulator;
import rocelab.fabric.nic.DeferredMessages;
import rocelab.workload.graph.WorkloadDriver;

/**
 * One packet-level run on several threads: the partitions of the fabric, the completion notifications each
 * partition keeps for the workload until the window ends, and the rule that ends the run as one thread ends it
 * (every event up to the lookahead after the last task's end, {@link Simulation#run}).
 */
final class ParallelRun implements PartitionedSimulator.WindowHook {
    private final PartitionedSimulator partitions;
    private final int threads;
    private final DeferredMessages[] notifications;
    private final long lookaheadPs;
    private WorkloadDriver driver;
    private rocelab.observe.pfc.PfcLog pfcLog;
    private rocelab.observe.credit.CreditLog creditLog;
    private rocelab.observe.ecmp.EcmpLog ecmpLog;
    private java.util.List<rocelab.fabric.packet.PacketPool> pools = java.util.List.of();

    ParallelRun(PartitionedSimulator partitions, int threads, long lookaheadPs) {
        this.partitions = partitions;
        this.threads = threads;
        this.lookaheadPs = lookaheadPs;
        this.notifications = new DeferredMessages[partitions.partitions()];
        for (int p = 0; p < notifications.length; p++) {
            notifications[p] = new DeferredMessages();
        }
        partitions.windowHook(this);
    }

    DeferredMessages[] notifications() {
        return notifications;
    }

    void driver(WorkloadDriver d, java.util.List<rocelab.fabric.packet.PacketPool> packetPools) {
        this.driver = d;
        this.pools = packetPools;
    }

    /** The PFC log whose partitions' captures are linked after each window. */
    void pfcLog(rocelab.observe.pfc.PfcLog log) {
        this.pfcLog = log;
    }

    /** The credit log whose partitions' notes are taken after each window. */
    void creditLog(rocelab.observe.credit.CreditLog log) {
        this.creditLog = log;
    }

    /** The ECMP log whose partitions' notes are taken after each window. */
    void ecmpLog(rocelab.observe.ecmp.EcmpLog log) {
        this.ecmpLog = log;
    }

    PartitionedSimulator partitions() {
        return partitions;
    }

    int threads() {
        return threads;
    }

    void runUntil(long endPs) {
        partitions.runUntil(endPs, threads);
    }

    @Override
    public long afterWindow(long windowEndPs, long endPs) {
        DeferredMessages.replay(notifications);
        // A driver with a lane per partition hands over the window's dependencies between partitions and applies its
        // queue pair failures now.
        driver.afterWindow(windowEndPs);
        if (pfcLog != null) {
            pfcLog.replayCaptures();
        }
        if (creditLog != null) {
            creditLog.replayCaptures();
        }
        if (ecmpLog != null) {
            ecmpLog.replayCaptures();
        }
        rocelab.fabric.packet.PacketPool.rebalance(pools);
        if (driver.allFinished()) {
            return Math.min(endPs, Simulation.lastEventPs(driver.lastFinishPs(), lookaheadPs));
        }
        return endPs;
    }
}
