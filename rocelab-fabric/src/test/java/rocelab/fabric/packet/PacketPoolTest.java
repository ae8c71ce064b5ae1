package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A large pool grows by a quarter when it runs dry, and hands back what was released before creating more. */
class PacketPoolTest {
    @Test
    void shouldGrowALargePoolByAQuarterSoAtMostAFifthIsLeftUnused() {
        PacketPool pool = new PacketPool(16);
        List<Packet> held = new ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            held.add(pool.acquire());
        }
        // Doubling from 16 would have made 524,288 packets for 300,000; a quarter past 65,536 makes at most 375,000.
        assertThat(pool.createdCount()).isBetween(300_000, 375_000);
        assertThat(pool.outstanding()).isEqualTo(300_000);
        int created = pool.createdCount();
        int growths = pool.growths();
        for (Packet p : held) {
            pool.release(p);
        }
        for (int i = 0; i < 300_000; i++) {
            pool.acquire();
        }
        assertThat(pool.createdCount()).as("released packets are reused").isEqualTo(created);
        assertThat(pool.growths()).isEqualTo(growths);
    }

    @Test
    void shouldDoubleASmallPool() {
        PacketPool pool = new PacketPool(4096);
        for (int i = 0; i < 4097; i++) {
            pool.acquire();
        }
        assertThat(pool.createdCount()).isEqualTo(8192);
        assertThat(pool.growths()).isEqualTo(1);
    }

    /** At a run's end the free packets go; those still out stay counted and come back; the pool still hands out. */
    @Test
    void dropsItsFreePacketsAndStillWorks() {
        PacketPool pool = new PacketPool(1024);
        List<Packet> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            out.add(pool.acquire());
        }
        pool.dropFree();
        assertThat(pool.outstanding()).isEqualTo(10);
        for (Packet p : out) {
            pool.release(p);
        }
        assertThat(pool.outstanding()).isZero();
        List<Packet> again = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            again.add(pool.acquire());
        }
        assertThat(again).doesNotHaveDuplicates();
        assertThat(again.subList(0, 10)).containsExactlyInAnyOrderElementsOf(out);
        assertThat(pool.outstanding()).isEqualTo(40);
    }

    /** Extras are taken at a packet's first write of one, given back at its release, and reused before more are made. */
    @Test
    void shouldLendExtrasOnlyToPacketsThatWriteThemAndReuseThem() {
        PacketPool pool = new PacketPool(64);
        Packet data = pool.acquire().qos(3, 26, Ecn.ECT_0);
        assertThat(data.markCongestionExperienced(5, 3, 2)).isTrue(); // the mark lies in the packet: no extras
        assertThat(pool.extrasCreatedCount()).isZero();
        assertThat(new int[] {data.markNode(), data.markPort()}).containsExactly(3, 2);
        Packet cnp = pool.acquire().notificationCause(data, 1);
        assertThat(pool.extrasCreatedCount()).as("one batch").isEqualTo(16);
        pool.release(cnp);
        pool.release(data);
        for (int i = 0; i < 1_000; i++) {
            Packet again = pool.acquire();
            assertThat(again.causePsn()).as("given back cleared").isEqualTo(-1);
            assertThat(again.markNode()).isEqualTo(-1);
            again.notificationCause(data, i + 2);
            pool.release(again);
        }
        assertThat(pool.extrasCreatedCount()).as("reused, none made").isEqualTo(16);
    }

    /** A partition whose packets take extras while another's releases get them back: evened out between windows. */
    @Test
    void shouldEvenOutTheFreeExtrasBetweenPools() {
        PacketPool taker = new PacketPool(64);
        PacketPool giver = new PacketPool(64);
        List<Packet> out = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            out.add(taker.acquire().placementOffset(i));
        }
        for (Packet p : out) {
            giver.release(p); // released where they arrive
        }
        int made = taker.extrasCreatedCount();
        PacketPool.rebalance(List.of(taker, giver));
        for (int i = 0; i < 500; i++) {
            taker.acquire().placementOffset(i);
        }
        assertThat(taker.extrasCreatedCount()).as("the taker's extras came back from the giver").isEqualTo(made);
    }

    /**
     * A run's tail: far fewer packets in flight than at its peak. Each look lets half of the packets no acquisition
     * reached since the last look go, down to the floor; those in use and those taken stay; a pool of fewer keeps all.
     */
    @Test
    void shouldLetHalfOfTheIdleFreePacketsGoAtEachLookDownToTheFloor() {
        PacketPool pool = new PacketPool(16);
        List<Packet> peak = new ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            peak.add(pool.acquire());
        }
        for (Packet p : peak) {
            pool.release(p);
        }
        int made = pool.createdCount();
        pool.trimIdle(); // the first look only starts the count
        assertThat(pool.createdCount()).isEqualTo(made);
        // The tail: 1,000 packets in flight at a time.
        for (int look = 0; look < 40; look++) {
            List<Packet> inFlight = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                inFlight.add(pool.acquire());
            }
            for (Packet p : inFlight) {
                pool.release(p);
            }
            int before = pool.createdCount();
            pool.trimIdle();
            int idle = before - 1_000;
            assertThat(pool.createdCount()).as("look %d", look)
                    .isEqualTo(idle > PacketPool.IDLE_FLOOR ? before - idle / 2 : before);
        }
        assertThat(pool.createdCount()).isBetween(1_000 + PacketPool.IDLE_FLOOR / 2, 1_000 + PacketPool.IDLE_FLOOR);
        int growths = pool.growths();
        for (int i = 0; i < 1_000; i++) {
            pool.release(pool.acquire());
        }
        assertThat(pool.growths()).as("what the tail uses was kept").isEqualTo(growths);
        assertThat(pool.outstanding()).isZero();
    }

    /** A pool that gave free packets to another between windows counts none of them as idle. */
    @Test
    void shouldNotCountWhatAPoolGaveAwayAsIdle() {
        PacketPool giver = new PacketPool(16);
        PacketPool taker = new PacketPool(16);
        List<Packet> out = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            out.add(taker.acquire());
        }
        for (Packet p : out) {
            giver.release(p); // released where they arrive: the giver's stack holds 200,016
        }
        giver.trimIdle();
        taker.trimIdle(); // both start counting: the giver's 200,016 and the taker's none
        PacketPool.rebalance(List.of(giver, taker)); // the giver keeps about half
        int kept = giver.createdCount();
        giver.trimIdle();
        // Half of what it still holds (about 100,000) goes, not half of the 200,016 it held at the last look.
        assertThat(kept - giver.createdCount()).isBetween(45_000, 55_000);
    }

    /**
     * Iterations with compute between: the packets in flight swing from none to 200,000 and back, and the looks in
     * the gaps let the idle ones go. The pool makes them again at each swing, but neither its packets nor its room
     * pile up from one swing to the next.
     */
    @Test
    void shouldNotPileUpPacketsOrRoomOverSwingsOfPacketsInFlight() {
        PacketPool pool = new PacketPool(16);
        int[] room = new int[6];
        int[] made = new int[6];
        for (int swing = 0; swing < room.length; swing++) {
            List<Packet> out = new ArrayList<>();
            for (int i = 0; i < 200_000; i++) {
                out.add(pool.acquire());
            }
            for (Packet p : out) {
                pool.release(p);
            }
            for (int look = 0; look < 10; look++) {
                pool.trimIdle();
            }
            room[swing] = pool.freeRoom();
            made[swing] = pool.createdCount();
        }
        assertThat(IntStream.of(made).max().orElseThrow()).isLessThanOrEqualTo(PacketPool.IDLE_FLOOR);
        assertThat(room[room.length - 1]).as("room after the last swing").isLessThanOrEqualTo(room[1]);
    }
}
