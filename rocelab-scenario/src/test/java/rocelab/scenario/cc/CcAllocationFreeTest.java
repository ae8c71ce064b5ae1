package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.engine.Time;
import rocelab.scenario.Simulation;

/** With each of the four controls on, a warm incast allocates nothing per event (ACK handling included). */
class CcAllocationFreeTest {
    @ParameterizedTest
    @ValueSource(strings = {"hpcc", "timely", "dctcp", "swift"})
    void shouldAllocateNothingPerAckWhenTheRunIsWarm(String cc) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Simulation sim = CcScenarios.assemble(CcScenarios.incast(8, "8MB", "cc: " + cc,
                ", ecn: {marking: step, k: 100KB}"));
        var s = sim.simulator();
        s.runUntil(Time.us(500));
        long id = Thread.currentThread().getId();
        int poolGrowths = sim.network().pool().growths();
        int calendarGrowths = s.calendar().growths();
        long events = s.eventsProcessed();
        long before = threads.getThreadAllocatedBytes(id);
        s.runUntil(Time.us(2500));
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        events = s.eventsProcessed() - events;
        assertThat(events).as("a steady stretch").isGreaterThan(50_000);
        assertThat(sim.driver().allFinished()).isFalse();
        assertThat(sim.network().pool().growths()).isEqualTo(poolGrowths);
        assertThat(s.calendar().growths()).isEqualTo(calendarGrowths);
        assertThat(allocated).as("bytes allocated during %d events with %s", events, cc).isLessThan(1024);
    }
}
