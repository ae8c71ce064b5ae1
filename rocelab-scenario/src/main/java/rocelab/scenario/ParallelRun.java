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
            // Whoever reads the logs after this (the outputs, the next stretch's progress) finds every window in them.
            awaitReplay();
        }
    }

    /**
     * The PFC and ECMP logs take each window's notes on a thread of their own while the next window runs, one after the
     * other as one thread takes them. The PFC log's replay (linking XOFFs to their causes, the waits reported at pause
     * ends going into the flows' slots) was the serial part of a lossless run on several threads (the 1,024-host
     * all-to-all: 18 of 79 s to 3 ms, with the other thread idle); the ECMP log's (collisions, the waits behind them)
     * was half of what remained of bench-B3's. Nothing a window does reads either log (the outputs do, after the
     * run), and the notes of consecutive windows are in buffers of their own parity.
     */
    private Future<?> logReplay;
    private ThreadPoolExecutor replayer;

    private void replayAside(int parity) {
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
        logReplay = replayer.submit(() -> {
            if (pfcLog != null) {
                pfcLog.replayCaptures(parity);
            }
            if (ecmpLog != null) {
                ecmpLog.replayCaptures(parity);
            }
        });
    }

    /** Waits for the logs' replay of the last window (a failure in it is thrown here as itself). */
    private void awaitReplay() {
        Future<?> pending = logReplay;
        if (pending == null) {
            return;
        }
        logReplay = null;
        Aside.await(pending);
    }

    @Override
    public long afterWindow(long windowEndPs, long endPs) {
        DeferredMessages.replay(notifications);
        // A driver with a lane per partition hands over the window's dependencies between partitions and applies its
        // queue pair failures now.
        driver.afterWindow(windowEndPs);
        int parity = partitions.lastWindowParity();
        if (pfcLog != null || ecmpLog != null) {
            // The window before's replay is done before the next window writes its notes' buffers again.
            awaitReplay();
            replayAside(parity);
        }
        if (creditLog != null) {
            creditLog.replayCaptures(parity);
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
