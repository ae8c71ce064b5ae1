package rocelab.observe.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-written JSON renderer produces documents a real parser reads back to the same values. */
class JsonTextTest {
    @Test
    void shouldRoundTripThroughJacksonWhenTreeHasEveryValueKind() throws Exception {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("p50", new BigDecimal("1234.56789"));
        inner.put("nan", Double.NaN);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "a \"quoted\"\\ name\n\t\u0001");
        m.put("count", 3L);
        m.put("ratio", 0.125);
        m.put("ok", true);
        m.put("none", null);
        m.put("list", List.of(1, 2, "x"));
        m.put("empty", Map.of());
        m.put("fct", inner);
        m.put("big", BigDecimal.valueOf(1, -12));
        JsonNode n = new ObjectMapper().readTree(JsonText.render(m));
        assertThat(n.get("name").asText()).isEqualTo("a \"quoted\"\\ name\n\t\u0001");
        assertThat(n.get("count").asLong()).isEqualTo(3);
        assertThat(n.get("ratio").asDouble()).isEqualTo(0.125);
        assertThat(n.get("ok").asBoolean()).isTrue();
        assertThat(n.get("none").isNull()).isTrue();
        assertThat(n.get("list").size()).isEqualTo(3);
        assertThat(n.get("fct").get("p50").decimalValue()).isEqualByComparingTo("1234.56789");
        assertThat(n.get("fct").get("nan").isNull()).isTrue();
        assertThat(n.get("big").asText()).isEqualTo("1000000000000");
        assertThat(JsonText.render(m)).doesNotContain("E+");
    }

    /**
     * Strings are escaped as a char-at-a-time escaper does whatever comes where (an escape first, last, in the middle,
     * several, none), and integers print as their toString: Jackson reads back every random string and number.
     */
    @Test
    void shouldEscapeEveryStringAndPrintEveryIntegerAsJacksonReadsThem() throws Exception {
        SplittableRandom random = new SplittableRandom(3);
        String alphabet = "ab \"\\\n\r\t\u0001\u001f\u00e9\u4e2d/x";
        ObjectMapper jackson = new ObjectMapper();
        for (int i = 0; i < 3_000; i++) {
            StringBuilder s = new StringBuilder();
            int len = random.nextInt(12);
            for (int k = 0; k < len; k++) {
                s.append(random.nextInt(3) == 0 ? alphabet.charAt(random.nextInt(alphabet.length())) : 'q');
            }
            long n = random.nextLong() >> random.nextInt(64);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(s.toString(), s.toString());
            m.put("long", n);
            m.put("int", (int) n);
            String text = JsonText.compact(m);
            JsonNode read = jackson.readTree(text);
            assertThat(read.get(s.toString()).asText()).isEqualTo(s.toString());
            assertThat(text).contains("\"long\": " + Long.toString(n)).contains("\"int\": " + Integer.toString((int) n));
        }
    }
}
