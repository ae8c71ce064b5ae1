package rocelab.observe.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;

/** Frames are byte-exact against the reference frames (mechanisms reference, 7.5 and 7.7). */
class FrameEncoderTest {
    private static final HexFormat HEX = HexFormat.of();
    private final PacketPool pool = new PacketPool(16);

    @Test
    void shouldReproduceTheReferenceIcrcWhenGivenTheMellanoxCnpVector() {
        byte[] ip = HEX.parseHex("4589003C98C64000201169271616160816161607DBAE12B7002800008100FFFF"
                + "400000D20000000000000000000000000000000000000000DAFC1BEF");
        long crc = FrameEncoder.icrc(ip, 0, 20, 28, ip.length - 4);
        assertThat(HEX.formatHex(new byte[] {(byte) crc, (byte) (crc >>> 8), (byte) (crc >>> 16),
            (byte) (crc >>> 24)})).isEqualTo("dafc1bef");
    }

    @Test
    void shouldEncodeTheReferencePfcFrameWhenXoffForPriorityThree() {
        Packet p = pool.acquire().initPfc(0, 3, 0xFFFF, 64);
        byte[] f = new FrameEncoder(false).encode(p, 2, 0);
        assertThat(HEX.formatHex(f)).isEqualTo("0180c2000001020000000003880801010008000000000000ffff"
                + "00000000000000000000000000000000000000000000000000000000000000000000");
    }

    @Test
    void shouldEncodeTheReferenceCnpAfterTheMacAddresses() {
        Packet p = pool.acquire().initCnp(0, 1, 0, 0x22 - FrameEncoder.QPN_BASE, 82).qos(6, 48, Ecn.NOT_ECT)
                .entropy(0xC000);
        byte[] f = new FrameEncoder(true).encode(p, 1, 0);
        assertThat(f).hasSize(78);
        assertThat(HEX.formatHex(Arrays.copyOfRange(f, 12, f.length))).isEqualTo("8100c064080045c0003c0000400040"
                + "1125ef0a0000020a000001c00012b7002800008100ffff400000220000000000000000000000000000000000000000"
                + "8cd0dd38");
    }

    /**
     * With cnp-on-ack (DCQCN's hpcc-ns3 profile) the notification rides on an ACK, not a CNP: the capture shows it as
     * the BECN bit of the ACK's BTH (byte 4, masked in the ICRC), and ACKs without it have the byte zero.
     */
    @Test
    void shouldSetBecnOnAnAckWhenItCarriesTheCongestionNotification() {
        FrameFormat ff = new FrameFormat(false);
        FrameEncoder enc = new FrameEncoder(false);
        int bth = 14 + 20 + 8;
        for (PacketKind kind : new PacketKind[] {PacketKind.ACK, PacketKind.NAK}) {
            Packet plain = pool.acquire().initAck(0, kind, 1, 0, 5, 9, ff.ackFrameBytes()).qos(3, 26, Ecn.NOT_ECT);
            Packet flagged = pool.acquire().initAck(0, kind, 1, 0, 5, 9, ff.ackFrameBytes()).qos(3, 26, Ecn.NOT_ECT)
                    .cnpFlag(true);
            byte[] a = enc.encode(plain, 1, 3);
            byte[] b = enc.encode(flagged, 1, 3);
            assertThat(a[bth + 4]).isZero();
            assertThat(b[bth + 4]).isEqualTo((byte) 0x40);
            b[bth + 4] = 0;
            assertThat(b).as("the same frame otherwise, ICRC included").isEqualTo(a);
            pool.release(plain);
            pool.release(flagged);
        }
    }

    @Test
    void shouldWriteARethWithThePlacementOffsetOnEveryPacketWithOutOfOrderPlacement() {
        FrameFormat ff = new FrameFormat(false);
        Packet p = pool.acquire().initData(0, 0, 1, 5, 7, 1000, ff.dataFrameBytes(1000, true), Opcodes.RDMA_WRITE_MIDDLE)
                .qos(3, 26, Ecn.ECT_0).entropy(0xC123).messageBytes(1 << 20).placementOffset(0x1_2345_6000L);
        byte[] f = new FrameEncoder(false).encode(p, 0, 0);
        assertThat(f).hasSize(p.frameBytes() - FrameFormat.FCS);
        int reth = 14 + 20 + 8 + 12;
        assertThat(HEX.formatHex(Arrays.copyOfRange(f, reth, reth + 16))).as("VA = offset, R_Key, DMA length")
                .startsWith("0000000123456000").endsWith("00100000");
        pool.release(p);
    }

    @Test
    void shouldMatchTheSimulatedFrameSizeWhenEncodingDataAndAcks() {
        FrameFormat ff = new FrameFormat(false);
        FrameEncoder enc = new FrameEncoder(false);
        for (int payload : new int[] {1, 3, 4, 1000, 4096}) {
            for (int op : new int[] {Opcodes.RDMA_WRITE_FIRST, Opcodes.RDMA_WRITE_MIDDLE}) {
                Packet p = pool.acquire().initData(0, 0, 1, 5, 7, payload, ff.dataFrameBytes(payload,
                        Opcodes.hasReth(op)), op).qos(3, 26, Ecn.CE).entropy(0xC123).messageBytes(1 << 20);
                assertThat(enc.encode(p, 0, 0)).hasSize(Math.max(60, p.frameBytes() - FrameFormat.FCS));
                pool.release(p);
            }
        }
        Packet ack = pool.acquire().initAck(0, PacketKind.ACK, 1, 0, 5, 9, ff.ackFrameBytes()).qos(3, 26, Ecn.NOT_ECT);
        assertThat(enc.encode(ack, 1, 0)).hasSize(ack.frameBytes() - FrameFormat.FCS);
    }

    /**
     * An HPCC frame carries the INT header after its payload, inside the ICRC: the frame is as long as the simulated
     * one, the IP and UDP lengths count the header, and its records are ns-3's IntHop words with the hop count last.
     */
    @Test
    void shouldEncodeTheIntHeaderAfterThePayloadWhenTheFrameCarriesOne() {
        FrameFormat ff = new FrameFormat(false);
        int header = FrameFormat.intHeaderBytes(5);
        Packet p = pool.acquire().initData(0, 0, 1, 5, 7, 1000, ff.dataFrameBytes(1000, false, header),
                Opcodes.RDMA_WRITE_MIDDLE).qos(3, 26, Ecn.ECT_0).entropy(0xC123).messageBytes(1 << 20)
                .requestTelemetry();
        // 12.345678 us, 1,280,000 bytes sent, 8,000 bytes queued, 100 Gb/s.
        p.stampTelemetry(12_345_678_000L, 1_280_000, 8_000, 100_000_000_000L);
        byte[] f = new FrameEncoder(false).encode(p, 0, 0);
        assertThat(f).hasSize(p.frameBytes() - FrameFormat.FCS).hasSize(1100);
        assertThat(((f[16] & 0xff) << 8) | (f[17] & 0xff)).as("IP total length").isEqualTo(1100 - 14);
        assertThat(((f[38] & 0xff) << 8) | (f[39] & 0xff)).as("UDP length").isEqualTo(1100 - 14 - 20);
        int at = 14 + 20 + 8 + 12 + 1000;
        long word = 0;
        for (int k = 7; k >= 0; k--) {
            word = word << 8 | (f[at + k] & 0xff);
        }
        assertThat(word & 7).as("rate code of 100 Gb/s").isEqualTo(2);
        assertThat(word >>> 3 & 0xFFFFFF).as("time, ns mod 2^24").isEqualTo(12_345_678L & 0xFFFFFF);
        assertThat(word >>> 27 & 0xFFFFF).as("bytes in 128 B").isEqualTo(10_000);
        assertThat(word >>> 47).as("queue in 80 B").isEqualTo(100);
        assertThat(Arrays.copyOfRange(f, at + 8, at + 40)).containsOnly(0);
        assertThat(f[at + 40]).as("hop count").isEqualTo((byte) 1);
        assertThat(f[at + 41]).isZero();
        pool.release(p);
        Packet ack = pool.acquire().initAck(0, PacketKind.ACK, 1, 0, 5, 9, ff.ackFrameBytes(header))
                .qos(3, 26, Ecn.NOT_ECT);
        assertThat(new FrameEncoder(false).encode(ack, 1, 0)).hasSize(ack.frameBytes() - FrameFormat.FCS).hasSize(104);
    }
}
