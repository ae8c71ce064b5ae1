package rocelab.scenario;

import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import rocelab.engine.PartitionedSimulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.DeferredMessages;
import rocelab.fabric.packet.PacketPool;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.pfc.PfcLog;
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
    private PfcLog pfcLog;
    private CreditLog creditLog;
    private EcmpLog ecmpLog;
    private Network network;
    private List<PacketPool> pools = List.of();

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

    void driver(WorkloadDriver d, Network fabric) {
        this.driver = d;
        this.network = fabric;
        this.pools = fabric.pools();
    }

    /** The PFC log whose partitions' captures are linked after each window. */
    void pfcLog(PfcLog log) {
        this.pfcLog = log;
    }

    /** The credit log whose partitions' notes are taken after each window. */
    void creditLog(CreditLog log) {
        this.creditLog = log;
    }

    /** The ECMP log whose partitions' notes are taken after each window. */
    void ecmpLog(EcmpLog log) {
        this.ecmpLog = log;
    }

    PartitionedSimulator partitions() {
        return partitions;
    }

    int threads() {
        return threads;
    }

    void runUntil(long endPs) {
        try {
            partitions.runUntil(endPs, threads);
        } finally {
            // Whoever reads the log after this (the outputs, the next stretch's progress) finds every window in it.
            awaitPfcReplay();
        }
    }

    /**
     * The PFC log takes each window's notes on a thread of its own while the next window runs: its replay (linking
     * XOFFs to their causes, the waits reported at pause ends going into the flows' slots) was the serial part of a
     * lossless run on several threads (the 1,024-host all-to-all: 18 of 79 s to 3 ms, with the other thread idle).
     * Nothing a window does reads the log, and the notes of consecutive windows are in buffers of their own parity.
     */
    private Future<?> pfcReplay;
    private ThreadPoolExecutor replayer;

    private void replayPfcAside(int parity) {
        if (replayer == null) {
            replayer = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "rocelab-pfc-replay");
                        t.setDaemon(true);
                        return t;
                    });
            // The thread ends after a second without work, so a JVM running many runs does not keep one per run.
            replayer.allowCoreThreadTimeOut(true);
        }
        pfcReplay = replayer.submit(() -> pfcLog.replayCaptures(parity));
    }

    /** Waits for the PFC log's replay of the last window (a failure in it is thrown here as itself). */
    private void awaitPfcReplay() {
        Future<?> pending = pfcReplay;
        if (pending == null) {
            return;
        }
        pfcReplay = null;
        Aside.await(pending);
    }

    @Override
    public long afterWindow(long windowEndPs, long endPs) {
        DeferredMessages.replay(notifications);
        // A driver with a lane per partition hands over the window's dependencies between partitions and applies its
        // queue pair failures now.
        driver.afterWindow(windowEndPs);
        int parity = partitions.lastWindowParity();
        if (pfcLog != null) {
            // The window before's replay is done before the next window writes its notes' buffers again.
            awaitPfcReplay();
            replayPfcAside(parity);
        }
        if (creditLog != null) {
            creditLog.replayCaptures(parity);
        }
        if (ecmpLog != null) {
            ecmpLog.replayCaptures(parity);
        }
        // Before the free packets are evened out: each pool's idle ones are those none of its partition took.
        network.trimIdlePackets(windowEndPs);
        PacketPool.rebalance(pools);
        if (driver.allFinished()) {
            return Math.min(endPs, Simulation.lastEventPs(driver.lastFinishPs(), lookaheadPs));
        }
        return endPs;
    }
}
