package io.dbqueue.spring.listener;

import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;

import java.lang.reflect.Method;

/**
 * AOT hints for a {@link DbQueueListener} method, for a native image: the method's invocation, and the binding of the
 * message type it reads (a {@code List}'s elements too). Without them the method was not found at run time, and a
 * payload could not be read into its type.
 */
public final class ListenerReflectiveProcessor extends SimpleReflectiveProcessor {

    private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

    @Override
    protected void registerMethodHint(ReflectionHints hints, Method method) {
        super.registerMethodHint(hints, method);
        if (method.getParameterCount() == 1 && method.getParameterTypes()[0] != Task.class
                && method.getParameterTypes()[0] != TaskBatch.class) {
            bindings.registerReflectionHints(hints, method.getGenericParameterTypes()[0]);
        }
    }
}
