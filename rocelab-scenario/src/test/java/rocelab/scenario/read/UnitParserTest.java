package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class UnitParserTest {

    @ParameterizedTest
    @CsvSource({
            "0, 0", "1500, 1500", "1500B, 1500", "4KB, 4000", "3MB, 3000000", "2GB, 2000000000",
            "4KiB, 4096", "4MiB, 4194304", "1GiB, 1073741824", "1.5KB, 1500", "0.5KiB, 512", "1.25MB, 1250000",
            "0B, 0", "2 MiB, 2097152"})
    void shouldConvertSizeWhenUnitIsKnown(String text, long bytes) {
        assertThat(UnitParser.bytes(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @CsvSource({
            "1bps, 1", "10Kbps, 10000", "25Mbps, 25000000", "100Gbps, 100000000000", "1.6Tbps, 1600000000000",
            "25.78125Gbps, 25781250000", "400 Gbps, 400000000000"})
    void shouldConvertRateWhenUnitIsKnown(String text, long bps) {
        assertThat(UnitParser.rateBps(text)).isEqualTo(bps);
    }

    @ParameterizedTest
    @CsvSource({
            "0, 0", "7ps, 7", "0ns, 0", "500ns, 500000", "1us, 1000000", "1.5us, 1500000", "1µs, 1000000",
            "2.5ms, 2500000000", "1s, 1000000000000", "0.001ns, 1"})
    void shouldConvertTimeWhenUnitIsKnown(String text, long ps) {
        assertThat(UnitParser.timePs(text)).isEqualTo(ps);
    }

    @Test
    void shouldRejectSizeWhenUnitIsUnknownOrWronglyCased() {
        String expected = "; expected a number of bytes, optionally with a unit: B, KB, MB, GB, KiB, MiB, GiB"
                + " (e.g. 4MiB)";
        assertThatThrownBy(() -> UnitParser.bytes("4mib")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'4mib' is not a size" + expected);
        assertThatThrownBy(() -> UnitParser.bytes("4Kb")).hasMessage("'4Kb' is not a size" + expected);
        assertThatThrownBy(() -> UnitParser.bytes("lots")).hasMessage("'lots' is not a size" + expected);
        assertThatThrownBy(() -> UnitParser.bytes("1e6")).hasMessage("'1e6' is not a size" + expected);
        assertThatThrownBy(() -> UnitParser.bytes("")).hasMessage("no size given" + expected);
    }

    @Test
    void shouldRejectSizeWhenNegativeFractionalOrTooLarge() {
        assertThatThrownBy(() -> UnitParser.bytes("-1MB")).hasMessage("'-1MB' is negative; expected a size"
                + " (a number of bytes, optionally with a unit: B, KB, MB, GB, KiB, MiB, GiB (e.g. 4MiB))");
        assertThatThrownBy(() -> UnitParser.bytes("1.0005KB")).hasMessage("'1.0005KB' is not a whole number of"
                + " bytes; expected a size that comes to an integer number of bytes");
        assertThatThrownBy(() -> UnitParser.bytes("1.5")).hasMessage("'1.5' is not a whole number of bytes;"
                + " expected a size that comes to an integer number of bytes");
        assertThatThrownBy(() -> UnitParser.bytes("99999999999GiB")).hasMessage("'99999999999GiB' is more than 1 PiB;"
                + " expected a size of at most 1,125,899,906,842,624 bytes");
        // Above 1 PiB a message's wire time no longer fits the clock (it overflowed silently: nothing was sent).
        assertThat(UnitParser.bytes("1125899906842624")).isEqualTo(1L << 50);
        assertThatThrownBy(() -> UnitParser.bytes("9223372036854775807")).hasMessage("'9223372036854775807' is more"
                + " than 1 PiB; expected a size of at most 1,125,899,906,842,624 bytes");
        assertThatThrownBy(() -> UnitParser.bytes("1048577GiB")).hasMessageStartingWith("'1048577GiB' is more than");
    }

    @Test
    void shouldRejectRateWhenUnitIsMissingOrWrong() {
        String expected = "; expected a number with a unit: bps, Kbps, Mbps, Gbps, Tbps, also written Gb/s, Gbit/s"
                + " or G (e.g. 100Gbps, 400G)";
        assertThatThrownBy(() -> UnitParser.rateBps("100Gbs")).hasMessage("'100Gbs' is not a rate" + expected);
        assertThatThrownBy(() -> UnitParser.rateBps("100gbps")).hasMessage("'100gbps' is not a rate" + expected);
        assertThatThrownBy(() -> UnitParser.rateBps("100GB")).hasMessage("'100GB' is not a rate" + expected);
        assertThatThrownBy(() -> UnitParser.rateBps("100")).hasMessage("'100' has no unit" + expected);
    }

    @Test
    void shouldReadTheRateFormsEngineersType() {
        for (String rate : new String[] {"400G", "400Gbps", "400Gb/s", "400Gbit/s", "400 Gb/s", "0.4Tbps", "400000M"}) {
            assertThat(UnitParser.rateBps(rate)).as(rate).isEqualTo(400_000_000_000L);
        }
        assertThat(UnitParser.rateBps("25k")).isEqualTo(25_000L);
        assertThat(UnitParser.rateBps("25Kbit/s")).isEqualTo(25_000L);
    }

    @Test
    void shouldRejectRateWhenZeroNegativeOrFractionalBits() {
        assertThatThrownBy(() -> UnitParser.rateBps("0Gbps"))
                .hasMessage("'0Gbps' is zero; expected a rate above 0 bit/s (e.g. 100Gbps)");
        assertThatThrownBy(() -> UnitParser.rateBps("-5Gbps")).hasMessage("'-5Gbps' is negative; expected a rate"
                + " (a number with a unit: bps, Kbps, Mbps, Gbps, Tbps, also written Gb/s, Gbit/s"
                + " or G (e.g. 100Gbps, 400G))");
        assertThatThrownBy(() -> UnitParser.rateBps("1.5bps")).hasMessage("'1.5bps' is not a whole number of bit/s;"
                + " expected a rate that comes to an integer number of bit/s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "1.5", "10 sec", "3h", "1US"})
    void shouldRejectTimeWhenUnitIsMissingOrUnknown(String text) {
        assertThatThrownBy(() -> UnitParser.timePs(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + text + "' ")
                .hasMessageEndingWith("; expected a number with a unit: ps, ns, us, ms, s (e.g. 1.5us), or 0");
    }

    @Test
    void shouldRejectTimeWhenNegativeOrFractionalPicoseconds() {
        assertThatThrownBy(() -> UnitParser.timePs("-1us")).hasMessageStartingWith("'-1us' is negative; expected a"
                + " time (a number with a unit");
        assertThatThrownBy(() -> UnitParser.timePs("0.5ps")).hasMessage("'0.5ps' is not a whole number of"
                + " picoseconds; expected a time that comes to an integer number of picoseconds");
        assertThatThrownBy(() -> UnitParser.timePs("5")).hasMessage("'5' has no unit; expected a number with a unit:"
                + " ps, ns, us, ms, s (e.g. 1.5us), or 0");
    }
}
