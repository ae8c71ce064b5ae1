package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * A partitioned run sees exactly what one simulator sees: every node of {@link GossipModel} ends with the same hash
 * and event count, whatever the partitions, their assignment and the number of threads, and no event is lost.
 */
class PartitionedSimulatorTest {
    private static final long LOOKAHEAD = 1_000;
    private static final long HORIZON = 400_000;

    private static String sequential(int nodes, long seed, long[] eventsOut) {
        Simulator sim = new Simulator();
        GossipModel m = new GossipModel(nodes, seed, LOOKAHEAD, HORIZON, i -> sim);
        sim.runUntil(Long.MAX_VALUE);
        assertThat(sim.eventsProcessed()).isEqualTo(m.events());
        if (eventsOut != null) {
            eventsOut[0] = sim.eventsProcessed();
        }
        return m.outcome();
    }

    private static String partitioned(int nodes, long seed, int partitions, int threads, long assignmentSeed) {
        PartitionedSimulator ps = new PartitionedSimulator(partitions, LOOKAHEAD);
        SplittableRandom r = new SplittableRandom(assignmentSeed);
        GossipModel m = new GossipModel(nodes, seed, LOOKAHEAD, HORIZON,
                i -> ps.partition(assignmentSeed == 0 ? i % partitions : r.nextInt(partitions)));
        assertThat(ps.runUntil(Long.MAX_VALUE, threads)).isFalse();
        assertThat(ps.eventsProcessed()).as("no event lost or duplicated").isEqualTo(m.events());
        return m.outcome();
    }

    @Test
    void shouldReproduceOneSimulatorWithTwoAndThreePartitionsOnOneToThreeThreads() {
        for (long seed = 1; seed <= 3; seed++) {
            long[] events = new long[1];
            String expected = sequential(9, seed, events);
            assertThat(events[0]).as("a run big enough to mean something").isGreaterThan(5_000);
            for (int partitions = 1; partitions <= 3; partitions++) {
                for (int threads = 1; threads <= 3; threads++) {
                    assertThat(partitioned(9, seed, partitions, threads, 0))
                            .as("seed %d, %d partitions, %d threads", seed, partitions, threads).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void shouldStopEveryPartitionAtTheSameTimeAndContinueFromThere() {
        long[] events = new long[1];
        String expected = sequential(7, 11, events);
        PartitionedSimulator ps = new PartitionedSimulator(3, LOOKAHEAD);
        GossipModel m = new GossipModel(7, 11, LOOKAHEAD, HORIZON, i -> ps.partition(i % 3));
        long t = 0;
        // Stops at arbitrary times, not on window boundaries; each run continues where the last one ended.
        while (ps.runUntil(t += 12_345, 2)) {
            for (int p = 0; p < 3; p++) {
                assertThat(ps.partition(p).nowPs()).isEqualTo(t);
            }
        }
        assertThat(m.outcome()).isEqualTo(expected);
        assertThat(ps.windows()).isPositive();
    }

    @Property(tries = 40)
    void shouldMatchOneSimulatorForAnyModelAndAnySplit(@ForAll @IntRange(min = 1, max = 12) int nodes,
            @ForAll @LongRange(min = 1, max = 1_000_000) long seed, @ForAll @IntRange(min = 1, max = 5) int partitions,
            @ForAll @IntRange(min = 1, max = 3) int threads,
            @ForAll @LongRange(min = 1, max = 1_000_000) long assignment) {
        assertThat(partitioned(nodes, seed, partitions, threads, assignment)).isEqualTo(sequential(nodes, seed, null));
    }

    @Test
    void shouldRefuseAnEventForAnotherPartitionInsideTheWindow() {
        PartitionedSimulator ps = new PartitionedSimulator(2, LOOKAHEAD);
        Simulator a = ps.partition(0);
        Simulator b = ps.partition(1);
        int target = b.register((now, kind, arg) -> { });
        int[] self = new int[1];
        self[0] = a.register((now, kind, arg) -> a.schedule(now + LOOKAHEAD / 2, target, 1, 0));
        a.schedule(10, self[0], 1, 0);
        assertThatThrownBy(() -> ps.runUntil(Long.MAX_VALUE, 2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shorter than the lookahead");
    }

    @Test
    void shouldRefuseAStopBecauseWhereItStopsWouldDependOnThePartitions() {
        PartitionedSimulator ps = new PartitionedSimulator(2, LOOKAHEAD);
        Simulator a = ps.partition(0);
        int id = a.register((now, kind, arg) -> a.stop());
        a.schedule(5, id, 1, 0);
        assertThatThrownBy(() -> ps.runUntil(Long.MAX_VALUE, 1)).hasMessageContaining("stop() is not supported");
    }

    /**
     * Handlers of the serial simulator (end-of-instant events that read every node, as a sampler does, and poke one
     * at their own picosecond, as timed starts do) see exactly what they see in one simulator, on any split.
     */
    @Test
    void shouldRunSerialHandlersBetweenWindowsAsOneSimulatorRunsThem() {
        String expected = withObservers(null, 0, 0);
        for (int partitions = 1; partitions <= 3; partitions++) {
            for (int threads = 1; threads <= 3; threads++) {
                assertThat(withObservers(new PartitionedSimulator(partitions, LOOKAHEAD), partitions, threads))
                        .as("%d partitions, %d threads", partitions, threads).isEqualTo(expected);
            }
        }
    }

    /** The gossip model with two observers every 700 ps; null: one simulator. Returns everything they saw. */
    private static String withObservers(PartitionedSimulator ps, int partitions, int threads) {
        Simulator one = ps == null ? new Simulator() : null;
        GossipModel m = new GossipModel(7, 5, LOOKAHEAD, HORIZON, i -> ps == null ? one : ps.partition(i % partitions));
        Simulator serial = ps == null ? one : ps.serial();
        StringBuilder seen = new StringBuilder();
        for (int o = 0; o < 2; o++) {
            int observer = o;
            int[] id = new int[1];
            id[0] = serial.register((now, kind, arg) -> {
                seen.append(observer).append('@').append(now).append(':').append(m.outcome().hashCode()).append(' ');
                if (observer == 0) {
                    // An ordinary event at this very picosecond: it runs before the other observer's turn.
                    serial.schedule(now, 0, GossipModel.MESSAGE, now);
                }
                if (now + 700 <= HORIZON) {
                    serial.scheduleAtEndOfInstant(now + 700, id[0], 0, 0);
                }
            });
            serial.scheduleAtEndOfInstant(700, id[0], 0, 0);
        }
        if (ps == null) {
            one.runUntil(Long.MAX_VALUE);
        } else {
            ps.runUntil(Long.MAX_VALUE, threads);
        }
        return seen + " / " + m.outcome();
    }
}
