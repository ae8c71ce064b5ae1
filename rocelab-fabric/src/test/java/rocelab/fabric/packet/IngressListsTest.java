package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The lists by ingress port are what a switch's FIFO egress queues hold, filtered by ingress: checked against the
 * queues themselves over random arrivals and departures, lossy classes never linked, and a departure from the
 * middle of a group refused rather than corrupting the lists an XOFF's cause is read from.
 */
class IngressListsTest {
    private static final int PORTS = 4;
    private static final int CLASSES = 8;
    /** Classes 3 and 4 lossless, as RoCE's usual pair. */
    private static final int LOSSLESS = 1 << 3 | 1 << 4;

    @Test
    void eachListIsItsGroupOfTheQueueInArrivalOrder() {
        SplittableRandom random = new SplittableRandom(7);
        PacketPool pool = new PacketPool(64);
        for (int round = 0; round < 100; round++) {
            IngressLists lists = new IngressLists(PORTS, CLASSES, LOSSLESS);
            @SuppressWarnings("unchecked")
            ArrayDeque<Packet>[] queues = new ArrayDeque[PORTS * CLASSES];
            for (int i = 0; i < queues.length; i++) {
                queues[i] = new ArrayDeque<>();
            }
            for (int step = 0; step < 400; step++) {
                int out = random.nextInt(PORTS);
                int tc = random.nextBoolean() ? 3 + random.nextInt(2) : random.nextInt(CLASSES);
                ArrayDeque<Packet> q = queues[out * CLASSES + tc];
                if (random.nextInt(5) < 3) {
                    Packet p = pool.acquire().initData(step, 0, 1, step, step, 1000, 1000 + random.nextInt(50), 0);
                    p.ingressPort(random.nextInt(PORTS));
                    lists.add(p.ingressPort(), out, tc, p);
                    q.addLast(p);
                } else if (!q.isEmpty()) {
                    Packet p = q.pollFirst();
                    lists.remove(out, tc, p);
                    pool.release(p);
                }
                if (step % 50 == 0) {
                    checkAgainstQueues(lists, queues);
                }
            }
            checkAgainstQueues(lists, queues);
            for (ArrayDeque<Packet> q : queues) {
                q.forEach(pool::release);
            }
        }
    }

    private static void checkAgainstQueues(IngressLists lists, ArrayDeque<Packet>[] queues) {
        for (int in = 0; in < PORTS; in++) {
            for (int out = 0; out < PORTS; out++) {
                for (int tc = 0; tc < CLASSES; tc++) {
                    List<Packet> expected = new ArrayList<>();
                    if (lists.tracks(tc)) {
                        for (Packet p : queues[out * CLASSES + tc]) {
                            if (p.ingressPort() == in) {
                                expected.add(p);
                            }
                        }
                    }
                    List<Packet> listed = new ArrayList<>();
                    for (Packet p = lists.first(in, out, tc); p != null; p = IngressLists.next(p)) {
                        listed.add(p);
                    }
                    assertThat(listed).as("in %d, out %d, class %d", in, out, tc).containsExactlyElementsOf(expected);
                }
            }
        }
    }

    @Test
    void aPacketLeavingAheadOfItsGroupsOlderOnesIsRefused() {
        PacketPool pool = new PacketPool(4);
        IngressLists lists = new IngressLists(PORTS, CLASSES, LOSSLESS);
        Packet older = pool.acquire().initData(0, 0, 1, 0, 0, 1000, 1048, 0);
        Packet newer = pool.acquire().initData(1, 0, 1, 0, 1, 1000, 1048, 0);
        older.ingressPort(2);
        newer.ingressPort(2);
        lists.add(2, 1, 3, older);
        lists.add(2, 1, 3, newer);
        assertThatThrownBy(() -> lists.remove(1, 3, newer)).isInstanceOf(IllegalStateException.class);
        lists.remove(1, 3, older);
        lists.remove(1, 3, newer);
        assertThat(lists.first(2, 1, 3)).isNull();
    }
}
