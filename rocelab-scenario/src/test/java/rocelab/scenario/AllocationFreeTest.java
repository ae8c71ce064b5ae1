package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PortCounter;

/**
 * In steady state the simulation loop allocates nothing: no pool growth and no heap allocation per event. (The
 * optional time-series sampler is off here: it appends to primitive arrays that grow by doubling.)
 */
class AllocationFreeTest {
    private static final String STEADY = """
            name: steady
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 400KB}
            nic: {cc: none, timeout: 6}
            traffic:
              - {kind: all-to-all, size: 2MB}
              - {kind: incast, senders: 1-15, receiver: 0, size: 2MB, start: 10us}
            observe: {sample-interval: 0}
            """;

    @Test
    void shouldAllocateNothingPerEventWhenTheRunIsWarm() {
        steadyState(Scenarios.assemble(STEADY));
    }

    @Test
    void shouldAllocateNothingPerEventWithSprayingAndSelectiveRepeat() {
        Simulation sim = Scenarios.assemble(STEADY.replace("buffer: 400KB", "buffer: 400KB, ecmp: {mode: spray}")
                .replace("timeout: 6", "timeout: 6, ooo: true, ooo-reorder: 16"));
        steadyState(sim);
        long selective = 0;
        long placed = 0;
        for (int h = 0; h < sim.network().hostCount(); h++) {
            selective += sim.network().nic(h).counter(NicCounter.SELECTIVE_RETRANSMITTED);
            placed += sim.network().nic(h).counter(NicCounter.OUT_OF_SEQUENCE);
        }
        assertThat(selective).as("selective resends").isPositive();
        assertThat(placed).as("packets placed out of order").isPositive();
    }

    /** Multi-plane RNICs: one port per plane, per-QP or spraying over them (the shared rotation and pacer). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"per-qp", "spray"})
    void shouldAllocateNothingPerEventOnPlanes(String selection) {
        Simulation sim = Scenarios.assemble(STEADY.replace("hosts-per-leaf: 4,", "hosts-per-leaf: 4, planes: 2,"
                + " plane-selection: " + selection + ",").replace("timeout: 6", "timeout: 6, ooo: true"));
        // Twice the links: the calendar's pending wake-ups settle at their level (about 200) later, near 630 us.
        measure(sim, Time.us(1000), Time.us(1500), Time.us(2000)).assertNothingAllocated(250_000);
        assertThat(sim.network().nic(1).portDataBytes(1)).as("data on plane 1").isPositive();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"{mode: adaptive, utilisation-window: 2us}",
        "{mode: flowlet, flowlet-timeout: 1us, tie-break: round-robin}"})
    void shouldAllocateNothingPerEventWithAdaptiveRoutingAndFlowlets(String balancing) {
        Simulation sim = Scenarios.assemble(STEADY.replace("buffer: 400KB", "buffer: 400KB, load-balancing: "
                + balancing));
        steadyState(sim);
        if (balancing.contains("flowlet")) {
            long flowlets = 0;
            for (int s = 0; s < sim.network().switchCount(); s++) {
                flowlets += sim.network().switchAt(s).flowletsStarted();
            }
            assertThat(flowlets).as("flowlets begun").isPositive();
        }
    }

    private static void steadyState(Simulation sim) {
        assertThat(sim.network().hostCount()).isEqualTo(16);
        measure(sim, Time.us(500), Time.us(1000), Time.us(1500)).assertNothingAllocated(250_000);
    }

    /**
     * A lossless fabric that pauses all the time (a 15:1 incast of long writes, no congestion control) allocates
     * nothing either. The PFC log (pfc.csv) keeps one row per PFC frame by design, so it is detached here; what is
     * measured is the simulation: pause durations (once 128-bit arithmetic), refreshes, XON, pause responses.
     */
    @Test
    void shouldAllocateNothingPerEventWhilePfcPausesAndResumes() {
        Simulation sim = Scenarios.assemble("""
                name: steady-pfc
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2MB}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-15, receiver: 0, size: 8MB}
                observe: {sample-interval: 0}
                """);
        detachPfcLog(sim);
        long pausesBefore = pauseFramesSent(sim, Time.us(300));
        Window w = measure(sim, Time.us(300), Time.us(1300), Time.us(2300));
        long pauses = pauseFramesSent(sim, -1) - pausesBefore;
        assertThat(pauses).as("PFC frames sent in the windows").isGreaterThan(200);
        w.assertNothingAllocated(50_000);
    }

    /** DCQCN reacting to an incast (CNPs, cuts, alpha updates, rate-increase timers) allocates nothing. */
    @Test
    void shouldAllocateNothingPerEventWhileDcqcnReactsToAnIncast() {
        Simulation sim = Scenarios.assemble("""
                name: steady-dcqcn
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: 4MB
                  ecn: {marking: red, kmin: 20KB, kmax: 200KB, pmax: 0.2}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 1-15, receiver: 0, size: 8MB}
                observe: {sample-interval: 0}
                """);
        detachPfcLog(sim);
        // Warm until the rates have settled and the queue has reached its depth (the pool stops growing).
        Window w = measure(sim, Time.us(2000), Time.us(3000), Time.us(4000));
        long cnps = 0;
        for (int h = 0; h < sim.network().hostCount(); h++) {
            cnps += sim.network().nic(h).counter(NicCounter.RP_CNP_HANDLED);
        }
        assertThat(cnps).as("CNPs the senders reacted to").isGreaterThan(100);
        w.assertNothingAllocated(50_000);
    }

    /**
     * InfiniBand: lanes out of credits at every sender's HCA and packets waiting in the switch's input buffers allocate
     * nothing, with the credit log attached as every InfiniBand run has it: each credit update names its buffer's root,
     * queued packets carry the lane's stall clock, and every wait for credits is told to the log.
     */
    @Test
    void shouldAllocateNothingPerEventWhileCreditsHoldAnInfinibandIncast() {
        Simulation sim = Scenarios.assemble("""
                name: steady-ib
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 16, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-15, receiver: 0, size: 8MB}
                observe: {sample-interval: 0}
                """);
        assertThat(sim.creditLog()).as("attached").isNotNull();
        Window w = measure(sim, Time.us(1000), Time.us(2000), Time.us(3000));
        assertThat(sim.network().nic(1).creditGate().stallPs(3, sim.simulator().nowPs()))
                .as("the senders wait for credits").isGreaterThan(Time.us(2000));
        assertThat(sim.creditLog().flowWaits().waitPs(0)).as("told to the log").isGreaterThan(Time.us(1000));
        w.assertNothingAllocated(20_000);
    }

    private static void detachPfcLog(Simulation sim) {
        var net = sim.network();
        for (int s = 0; s < net.switchCount(); s++) {
            net.switchAt(s).pfcProbe(PfcProbe.NONE);
        }
        for (int h = 0; h < net.hostCount(); h++) {
            net.nic(h).pfcProbe(PfcProbe.NONE);
        }
    }

    /** PFC frames the switches have sent; runs to {@code untilPs} first unless it is negative. */
    private static long pauseFramesSent(Simulation sim, long untilPs) {
        if (untilPs >= 0) {
            sim.simulator().runUntil(untilPs);
        }
        var net = sim.network();
        long n = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            var sw = net.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                n += sw.port(p).counter(PortCounter.PAUSE_SENT);
            }
        }
        return n;
    }

    /**
     * Runs to {@code warmPs}, then two windows (to {@code midPs}, to {@code endPs}) and records what each allocated
     * and grew. Allocation per event shows in both windows; the JIT settling (a deoptimisation materialises the
     * objects it had optimised away) may show in one, so the check takes the smaller.
     */
    private static Window measure(Simulation sim, long warmPs, long midPs, long endPs) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        var s = sim.simulator();
        var pool = sim.network().pool();
        s.runUntil(warmPs);
        long id = Thread.currentThread().getId();
        int poolGrowths = pool.growths();
        int calendarGrowths = s.calendar().growths();
        long eventsBefore = s.eventsProcessed();
        long before = threads.getThreadAllocatedBytes(id);
        s.runUntil(midPs);
        long mid = threads.getThreadAllocatedBytes(id);
        long eventsMid = s.eventsProcessed();
        s.runUntil(endPs);
        long after = threads.getThreadAllocatedBytes(id);
        assertThat(sim.driver().allFinished()).as("still running: the windows were steady state").isFalse();
        return new Window(eventsMid - eventsBefore, s.eventsProcessed() - eventsMid, mid - before, after - mid,
                pool.growths() - poolGrowths, s.calendar().growths() - calendarGrowths);
    }

    private record Window(long events1, long events2, long allocated1, long allocated2, int poolGrowths,
            int calendarGrowths) {
        void assertNothingAllocated(long minEvents) {
            assertThat(Math.min(events1, events2)).as("long steady stretches of events").isGreaterThan(minEvents);
            assertThat(poolGrowths).as("pool growths in steady state").isZero();
            assertThat(calendarGrowths).as("calendar growths in steady state").isZero();
            assertThat(Math.min(allocated1, allocated2))
                    .as("bytes allocated during %d and %d events: %d and %d", events1, events2, allocated1, allocated2)
                    .isLessThan(1024);
        }
    }
}
