package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A queue's bytes, and its bytes taken out at the head: the bytes ahead of any queued packet are its place in the
 * queue's stream of bytes less those taken out (what a walk that resumes mid-queue relies on, Switch's idle checks).
 */
class PacketFifoTest {
    @Test
    void shouldTellTheBytesAheadOfAQueuedPacketFromItsPlaceInTheStream() {
        PacketFifo fifo = new PacketFifo();
        Deque<Packet> model = new ArrayDeque<>();
        Deque<Long> endOf = new ArrayDeque<>(); // per queued packet: its end in the stream of bytes ever added
        long added = 0;
        Random random = new Random(7);
        for (int step = 0; step < 20_000; step++) {
            if (random.nextInt(3) > 0 || model.isEmpty()) {
                Packet p = new Packet();
                p.frameBytes = 64 + random.nextInt(4096);
                fifo.add(p);
                model.addLast(p);
                added += p.frameBytes;
                endOf.addLast(added);
            } else {
                assertThat(fifo.poll()).isSameAs(model.pollFirst());
                endOf.pollFirst();
            }
            long queued = model.stream().mapToLong(x -> x.frameBytes).sum();
            assertThat(fifo.bytes()).isEqualTo(queued);
            assertThat(fifo.bytesRemoved()).isEqualTo(added - queued);
            if (!model.isEmpty()) {
                // The last packet: its bytes ahead are the queue less its own.
                assertThat(endOf.peekLast() - model.peekLast().frameBytes - fifo.bytesRemoved())
                        .isEqualTo(queued - model.peekLast().frameBytes);
                // The head has none ahead.
                assertThat(endOf.peekFirst() - model.peekFirst().frameBytes - fifo.bytesRemoved()).isZero();
            }
        }
    }
}
