package io.dbqueue.spring.listener;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class MessageTypesTest {

    record Order(String id) {
    }

    record Envelope<M>(M message) {
    }

    abstract static class Typed<T> {
        void on(T message) {
        }

        void onAll(List<T> messages) {
        }
    }

    abstract static class Bounded<T extends Number> {
        void on(T message) {
        }
    }

    static class Orders extends Typed<Order> {
    }

    static class Envelopes extends Typed<Envelope<Order>> {
    }

    abstract static class Lists<U> extends Typed<List<U>> {
    }

    static class ListsOfOrders extends Lists<Order> {
    }

    @SuppressWarnings("rawtypes")
    static class Raw extends Typed {
    }

    @SuppressWarnings("rawtypes")
    static class OpenBound extends Bounded {
    }

    static class Plain {
        <M> void generic(M message) {
        }
    }

    @Test
    void aBaseClassesVariableIsTheTypeItsSubclassBinds() {
        assertEquals(Order.class, bound(Typed.class, "on", Orders.class));
        assertEquals(((ParameterizedType) Envelopes.class.getGenericSuperclass()).getActualTypeArguments()[0],
                bound(Typed.class, "on", Envelopes.class), "Envelope<Order>, not the raw Envelope");
        String listOfOrders = "java.util.List<" + Order.class.getTypeName() + ">";
        assertEquals(listOfOrders, bound(Typed.class, "on", ListsOfOrders.class).getTypeName(), "through a middle class");
        assertEquals(listOfOrders, bound(Typed.class, "onAll", Orders.class).getTypeName());
    }

    @Test
    void aVariableLeftOpenIsNoType() {
        assertNull(bound(Typed.class, "on", Raw.class));
        assertNull(bound(Bounded.class, "on", OpenBound.class), "bounded, not bound: read as its bound, it failed");
        assertNull(bound(Plain.class, "generic", Plain.class), "a method's own variable");
    }

    private static Type bound(Class<?> declaring, String name, Class<?> beanClass) {
        Method method = List.of(declaring.getDeclaredMethods()).stream().filter(m -> m.getName().equals(name))
                .findFirst().orElseThrow();
        return MessageTypes.bound(method.getGenericParameterTypes()[0], beanClass);
    }
}
