# One image for every process of the production stack (see docker-compose.yml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# The judge's synonyms come from Debian's WordNet, read into var/wordnet-nouns.json here (below): a
# running server only loads that index, it never spends the twenty seconds reading WordNet itself.
RUN apt-get update && apt-get install -y --no-install-recommends wordnet-base espeak-ng && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN python -m game.judging.lexicon
# Collecting static files needs no secrets; the real SECRET_KEY comes from the environment at run time.
RUN DEBUG=1 python manage.py collectstatic --noinput
