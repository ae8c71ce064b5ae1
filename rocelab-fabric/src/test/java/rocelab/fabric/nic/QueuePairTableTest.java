package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import rocelab.fabric.TestFabric;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;

/**
 * The table's change bits: what each partition marks, a reader takes as one set, in id order, each id once until it is
 * marked again; the same whichever partition marked it, and across the arrays' growth.
 */
class QueuePairTableTest {
    private static QueuePair qp(int id) {
        CongestionControl lineRate = TestFabric.LINE_RATE.create(
                new CongestionControlFactory.Context(null, 100_000_000_000L, id, null));
        return new QueuePair(id, null, null, 49152 + id % 1000, lineRate, null, NicParameters.defaults(1000));
    }

    /** Each QP's ends and UDP source port, as added, read back by id after the table grew several times. */
    @Test
    void keepsEachQueuePairsEndsByIdAcrossGrowth() {
        QueuePairTable t = table(2, 1000);
        for (int id = 0; id < 1000; id++) {
            assertThat(new int[] {t.sourceHost(id), t.destinationHost(id), t.entropy(id)}).as("QP %d", id)
                    .containsExactly(id % 7, id % 5, 49152 + id % 1000);
        }
    }

    private static QueuePairTable table(int partitions, int queuePairs) {
        QueuePairTable t = new QueuePairTable();
        if (partitions > 1) {
            t.partitions(partitions);
        }
        for (int id = 0; id < queuePairs; id++) {
            t.add(qp(id), id % partitions, id % 7, id % 5);
        }
        return t;
    }

    private static List<Integer> takeAllChanged(QueuePairTable t) {
        List<Integer> ids = new ArrayList<>();
        for (int id = t.takeChanged(0); id >= 0; id = t.takeChanged(id + 1)) {
            ids.add(id);
        }
        return ids;
    }

    private static List<Integer> takeAllDelivered(QueuePairTable t) {
        List<Integer> ids = new ArrayList<>();
        for (int id = t.takeDelivered(0); id >= 0; id = t.takeDelivered(id + 1)) {
            ids.add(id);
        }
        return ids;
    }

    @Test
    void everyQueuePairCountsAsChangedOnceWhenTrackingStarts() {
        QueuePairTable t = table(3, 200);
        t.trackChanges();
        assertThat(takeAllChanged(t)).hasSize(200).isSorted();
        assertThat(takeAllDelivered(t)).hasSize(200);
        assertThat(takeAllChanged(t)).isEmpty();
        assertThat(takeAllDelivered(t)).isEmpty();
    }

    @Test
    void marksOfEveryPartitionAreTakenAsOneSetInIdOrder() {
        SplittableRandom random = new SplittableRandom(7);
        for (int partitions = 1; partitions <= 4; partitions++) {
            QueuePairTable t = table(partitions, 1000);
            t.trackChanges();
            takeAllChanged(t);
            takeAllDelivered(t);
            for (int round = 0; round < 20; round++) {
                TreeSet<Integer> changed = new TreeSet<>();
                TreeSet<Integer> delivered = new TreeSet<>();
                for (int i = 0; i < 300; i++) {
                    int id = random.nextInt(1000);
                    // The same QP may be marked by several partitions in one interval (its sender's and its
                    // responder's RNICs): it is taken once.
                    int partition = random.nextInt(partitions);
                    if (random.nextBoolean()) {
                        t.changed(partition, id);
                        changed.add(id);
                    } else {
                        t.delivered(partition, id);
                        delivered.add(id);
                    }
                }
                assertThat(takeAllChanged(t)).containsExactlyElementsOf(changed);
                assertThat(takeAllDelivered(t)).containsExactlyElementsOf(delivered);
            }
        }
    }

    @Test
    void aWalkFromTheMiddleTakesOnlyWhatFollows() {
        QueuePairTable t = table(2, 300);
        t.trackChanges();
        takeAllChanged(t);
        t.changed(1, 10);
        t.changed(0, 130);
        t.changed(1, 131);
        t.changed(0, 299);
        assertThat(t.takeChanged(64)).isEqualTo(130);
        assertThat(t.takeChanged(131)).isEqualTo(131);
        assertThat(t.takeChanged(132)).isEqualTo(299);
        assertThat(t.takeChanged(300)).isEqualTo(-1);
        assertThat(takeAllChanged(t)).containsExactly(10);
    }

    @Test
    void queuePairsOpenedAfterTrackingStartsGrowEveryPartitionsBits() {
        QueuePairTable t = table(2, 10);
        t.trackChanges();
        takeAllChanged(t);
        takeAllDelivered(t);
        // Opened later (a streamed workload opens QPs as it goes), past the arrays' first size.
        for (int id = 10; id < 5000; id++) {
            t.add(qp(id), id % 2, id % 7, id % 5);
        }
        t.changed(0, 4999);
        t.delivered(1, 4000);
        t.delivered(0, 3);
        List<Integer> changed = takeAllChanged(t);
        assertThat(changed).hasSize(4990).startsWith(10, 11).endsWith(4999);
        assertThat(takeAllDelivered(t)).containsExactly(3, 4000);
    }

    @Test
    void partitionsAreSetBeforeChangesAreTracked() {
        QueuePairTable t = table(1, 5);
        t.trackChanges();
        assertThatThrownBy(() -> t.partitions(2)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new QueuePairTable().partitions(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
