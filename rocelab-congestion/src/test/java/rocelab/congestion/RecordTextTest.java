package rocelab.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.flowcontrol.PfcWatchdogParameters;
import rocelab.fabric.nic.ReceiveParameters;

/**
 * The records whose toString() is written out (it is hashed into the manifest, and the generated one costs start-up
 * time) give the generated text: name[component=value, ...], every component in order. A component added without
 * its place in toString() fails here. The fabric's records are checked here too: this module sees them.
 */
class RecordTextTest {
    /** What a record's generated toString() gives. */
    static String generated(Record r) throws ReflectiveOperationException {
        List<String> parts = new ArrayList<>();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            parts.add(c.getName() + "=" + c.getAccessor().invoke(r));
        }
        return r.getClass().getSimpleName() + "[" + String.join(", ", parts) + "]";
    }

    /** A record that keeps the generated toString(), to check {@link #generated} against the JVM's own. */
    private record Control(int i, long l, double d, boolean b, String s, Object o, Map<String, Double> m) {}

    @Test
    void shouldRenderAsTheJvmDoes() throws ReflectiveOperationException {
        Control c = new Control(-3, 1L << 40, 0.1, true, "x y", null, new TreeMap<>(Map.of("a", 1e-7)));
        assertThat(generated(c)).isEqualTo(c.toString());
    }

    @Test
    void shouldWriteTheGeneratedTextOfEachRecord() throws ReflectiveOperationException {
        PfcWatchdogParameters watchdog = new PfcWatchdogParameters(true, 3, 5, 7, false);
        List<Record> records = List.of(CcSettings.of("dcqcn"), new CcSettings("dcqcn", "hpcc-ns3",
                Map.of("g", 0.00390625, "rai", 2e7)), EcnParameters.defaults(), EcnParameters.none(),
                PfcParameters.defaults(), PfcParameters.off(), watchdog, PfcWatchdogParameters.sonicDefaults(),
                new ReceiveParameters(100_000_000_000L, 1 << 20, 4_096, 2_048), ReceiveParameters.unlimited());
        for (Record r : records) {
            assertThat(r.toString()).isEqualTo(generated(r));
        }
    }
}
