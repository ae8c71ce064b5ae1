package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A packet's rarely written fields live in its {@link PacketExtras}: they read back what was written, a packet that
 * never wrote them answers the defaults, and a packet reused from the pool answers the defaults again whatever its
 * previous life wrote (the pool hands back the packet released last).
 */
class PacketExtrasTest {
    @Test
    void shouldAnswerTheDefaultsOnAPacketThatWroteNoExtras() {
        Packet p = new PacketPool(16).acquire().initData(5L, 1, 2, 3, 7L, 1000, 1078, Opcodes.RDMA_WRITE_ONLY);
        p.heldByPauseAt(9, 4);
        assertDefaults(p);
        assertThat(p.opcode()).isEqualTo(Opcodes.RDMA_WRITE_ONLY);
    }

    @Test
    void shouldReadBackWhatWasWrittenAndForgetItWhenReused() {
        PacketPool pool = new PacketPool(16);
        Packet data = pool.acquire().initData(5L, 1, 2, 3, 7L, 1000, 1078, Opcodes.RDMA_WRITE_ONLY)
                .qos(3, 26, Ecn.ECT_0).placementOffset(4096L);
        data.requestTelemetry();
        data.stampTelemetry(10L, 20L, 30L, 40L);
        assertThat(data.markCongestionExperienced(11L, 9, 4)).isTrue();
        assertThat(data.markCongestionExperienced(12L, 8, 2)).as("the first mark is kept").isTrue();
        assertThat(data.placementOffset()).isEqualTo(4096L);
        assertThat(data.markNode()).isEqualTo(9);
        assertThat(data.markPort()).isEqualTo(4);
        assertThat(data.markAtPs()).isEqualTo(11L);
        data.heldByPauseAt(8, 2);
        assertThat(data.markHeldByPause()).as("a pause at a port that did not first mark it").isFalse();
        data.heldByPauseAt(9, 4);
        assertThat(data.markHeldByPause()).as("a pause at the port that first marked it").isTrue();
        assertThat(data.telemetryHops()).isEqualTo(1);
        assertThat(data.hopQueueBytes(0)).isEqualTo(30L);

        Packet cnp = pool.acquire().initCnp(13L, 2, 1, 3, 78).notificationCause(data, 2);
        cnp.notifySentPs(14L);
        assertThat(cnp.causePsn()).isEqualTo(7L);
        assertThat(cnp.markNode()).isEqualTo(9);
        assertThat(cnp.markHeldByPause()).isTrue();
        assertThat(cnp.notification()).isEqualTo(2L);
        assertThat(cnp.notifySentPs()).isEqualTo(14L);

        Packet ack = pool.acquire().initAck(15L, PacketKind.NAK, 2, 1, 3, 7L, 62).selectiveNak(6L, 9L, 5L);
        ack.copyTelemetryFrom(data);
        assertThat(ack.selective()).isTrue();
        assertThat(ack.cumulativePsn()).isEqualTo(6L);
        assertThat(ack.missingToPsn()).isEqualTo(9L);
        assertThat(ack.previousMissingToPsn()).isEqualTo(5L);
        assertThat(ack.telemetryHops()).isEqualTo(1);
        assertThat(ack.hopRateBps(0)).isEqualTo(40L);

        for (Packet p : new Packet[] {ack, cnp, data}) {
            pool.release(p);
            Packet again = pool.acquire();
            assertThat(again).isSameAs(p);
            assertDefaults(again);
            // Writing one extra in the new life must not bring back the others of the old one.
            again.initData(20L, 1, 2, 3, 8L, 1000, 1078, Opcodes.RDMA_WRITE_ONLY).qos(3, 26, Ecn.ECT_0);
            assertThat(again.markCongestionExperienced(21L, 6, 1)).isTrue();
            assertThat(again.markNode()).as("a new first mark").isEqualTo(6);
            assertThat(again.markPort()).isEqualTo(1);
            assertThat(again.markAtPs()).isEqualTo(21L);
            assertThat(again.placementOffset()).isEqualTo(-1L);
            assertThat(again.selective()).isFalse();
            assertThat(again.causePsn()).isEqualTo(-1L);
            assertThat(again.notification()).isZero();
            assertThat(again.notifySentPs()).isEqualTo(-1L);
            assertThat(again.telemetryHops()).isZero();
        }
    }

    @Test
    void shouldKeepNarrowFieldsWholeAtTheirLargestValues() {
        Packet pfc = new PacketPool(16).acquire().initPfc(1L, 7, 65535, 64).qos(7, 63, Ecn.NOT_ECT);
        assertThat(pfc.opcode()).isEqualTo(0x0101);
        assertThat(pfc.syndrome()).isEqualTo(1 << 7);
        assertThat(pfc.pauseQuanta()).isEqualTo(65535);
        assertThat(pfc.priority()).isEqualTo(7);
        assertThat(pfc.dscp()).isEqualTo(63);
        Packet sm = new PacketPool(16).acquire().initManagement(1L, 256);
        assertThat(sm.priority()).isEqualTo(15);
    }

    private static void assertDefaults(Packet p) {
        assertThat(p.placementOffset()).isEqualTo(-1L);
        assertThat(p.selective()).isFalse();
        assertThat(p.cumulativePsn()).isEqualTo(-1L);
        assertThat(p.missingToPsn()).isEqualTo(-1L);
        assertThat(p.previousMissingToPsn()).isEqualTo(-1L);
        assertThat(p.markNode()).isEqualTo(-1);
        assertThat(p.markPort()).isZero();
        assertThat(p.markAtPs()).isZero();
        assertThat(p.markHeldByPause()).isFalse();
        assertThat(p.causePsn()).isEqualTo(-1L);
        assertThat(p.notification()).isZero();
        assertThat(p.notifySentPs()).isEqualTo(-1L);
        assertThat(p.telemetryHops()).isZero();
        assertThat(p.telemetryRequested()).isFalse();
    }
}
