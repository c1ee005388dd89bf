# One image for every process of the production stack (see docker-compose.yml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# Collecting static files needs no secrets; the real SECRET_KEY comes from the environment at run time.
RUN DEBUG=1 python manage.py collectstatic --noinput
