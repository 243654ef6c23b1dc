package io.dbqueue.spring.listener;

import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.TaskResult;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;

/**
 * What a {@link DbQueueListener} method takes, read from its signature, or why it cannot be one.
 *
 * @param messageType for {@link Kind#MESSAGE} the parameter's type, for {@link Kind#LIST} the list's element type
 */
record ListenerMethod(Method method, Kind kind, Type messageType) {

    enum Kind {
        /** The claimed batch, as a {@link io.dbqueue.queue.BatchHandler} gets it. */
        BATCH,
        /** One task at a time. */
        TASK,
        /** The batch's messages as a list. */
        LIST,
        /** One message at a time. */
        MESSAGE
    }

    static ListenerMethod of(Method method) {
        String name = method.getDeclaringClass().getName() + "." + method.getName();
        if (method.getParameterCount() != 1) {
            throw new IllegalStateException("@DbQueueListener method " + name + " must take one parameter (a message"
                    + " type, a List of one, Task or TaskBatch); it takes " + method.getParameterCount());
        }
        Class<?> parameter = method.getParameterTypes()[0];
        Type generic = method.getGenericParameterTypes()[0];
        Kind kind;
        Type messageType = null;
        if (parameter == TaskBatch.class) {
            kind = Kind.BATCH;
        } else if (parameter == Task.class) {
            kind = Kind.TASK;
        } else if (parameter == List.class) {
            if (!(generic instanceof ParameterizedType list) || !(list.getActualTypeArguments()[0] instanceof Class
                    || list.getActualTypeArguments()[0] instanceof ParameterizedType)) {
                throw new IllegalStateException("@DbQueueListener method " + name + " takes a List without a concrete"
                        + " element type; declare it as List<YourMessage>");
            }
            kind = Kind.LIST;
            messageType = list.getActualTypeArguments()[0];
        } else {
            kind = Kind.MESSAGE;
            messageType = generic;
        }
        Class<?> returns = method.getReturnType();
        boolean perTask = kind == Kind.TASK || kind == Kind.MESSAGE;
        if (returns != void.class && !(perTask && returns == TaskResult.class)) {
            throw new IllegalStateException("@DbQueueListener method " + name + " must return void" + (perTask
                    ? " or TaskResult" : "") + ", returns " + returns.getName());
        }
        return new ListenerMethod(method, kind, messageType);
    }

    String describe() {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }
}
