package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;

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
            selective += sim.network().nic(h).counter(rocelab.fabric.probe.NicCounter.SELECTIVE_RETRANSMITTED);
            placed += sim.network().nic(h).counter(rocelab.fabric.probe.NicCounter.OUT_OF_SEQUENCE);
        }
        assertThat(selective).as("selective resends").isPositive();
        assertThat(placed).as("packets placed out of order").isPositive();
    }

    private static void steadyState(Simulation sim) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        var s = sim.simulator();
        var pool = sim.network().pool();
        s.runUntil(Time.us(500));
        long id = Thread.currentThread().getId();
        int poolGrowths = pool.growths();
        int calendarGrowths = s.calendar().growths();
        long eventsBefore = s.eventsProcessed();
        long before = threads.getThreadAllocatedBytes(id);
        s.runUntil(Time.us(1500));
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        long events = s.eventsProcessed() - eventsBefore;
        assertThat(events).as("a long steady stretch of events").isGreaterThan(500_000);
        assertThat(sim.network().hostCount()).isEqualTo(16);
        assertThat(pool.growths()).as("pool growths in steady state").isEqualTo(poolGrowths);
        assertThat(s.calendar().growths()).as("calendar growths in steady state").isEqualTo(calendarGrowths);
        assertThat(sim.driver().allFinished()).as("still running: the window was steady state").isFalse();
        assertThat(allocated).as("bytes allocated during %d events", events).isLessThan(1024);
    }
}
